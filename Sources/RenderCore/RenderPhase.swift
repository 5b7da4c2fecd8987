/// A stage of a render that the owner may time apart from the whole frame.
public enum RenderPhase: Sendable, Hashable {
    /// Gaussian shadows, backdrop and region blurs.
    case blur
}

/// Told where each ``RenderPhase`` begins and ends during ``LayerRenderer/render(_:width:height:scale:background:observer:)``,
/// so the owner can time phases on its own clock: the pure core never reads one.
///
/// Calls come in matching pairs on the rendering thread, never nested for the same phase.
public protocol RenderPhaseObserver: AnyObject {
    /// `phase` is about to run.
    func phaseBegan(_ phase: RenderPhase)
    /// `phase` has finished (also when it threw).
    func phaseEnded(_ phase: RenderPhase)
}
