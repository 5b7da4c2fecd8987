/// What the generated ``RecognizerConfig`` needs by hand.
///
/// The component host publishes one with each state of a component that drives its recognizers
/// (an edge drawer: its swipe accepts only the direction the menu listens for and receives
/// touches only on the menu's panel); the gesture recognizer applies it at once. A field left
/// out keeps the scene's value, so each message is the recognizer's whole run-time configuration
/// and the newest one (kept by the proxy's last-value cache) is all a restarted recognizer needs.
extension RecognizerConfig {
    /// The longest recognizer name (a topic segment).
    public static let maximumNameLength = 128

    /// A rectangle in scene points: the scene's own frame type.
    public typealias Region = Scene.Frame
}
