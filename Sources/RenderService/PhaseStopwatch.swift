import Bus
import RenderCore

/// Times the phases a ``LayerRenderer`` marks, on the service's monotonic clock, summed over
/// one frame (a frame may blur many shadows and regions).
final class PhaseStopwatch: RenderPhaseObserver {
    private var began: [RenderPhase: UInt64] = [:]
    private var totals: [RenderPhase: UInt64] = [:]

    /// Forgets the last frame's totals.
    func reset() {
        self.began.removeAll(keepingCapacity: true)
        self.totals.removeAll(keepingCapacity: true)
    }

    /// Milliseconds spent in `phase` since the last ``reset()``.
    func milliseconds(_ phase: RenderPhase) -> Double {
        Double(self.totals[phase] ?? 0) / 1e6
    }

    func phaseBegan(_ phase: RenderPhase) {
        self.began[phase] = Clock.monotonicNs()
    }

    func phaseEnded(_ phase: RenderPhase) {
        guard let start = self.began.removeValue(forKey: phase) else { return }
        self.totals[phase, default: 0] += Clock.monotonicNs() - start
    }
}
