/// How a component state change is animated, as a UIView block animation does it: the state
/// carries the new (model) values, and the render worker moves what is on screen to them over
/// `durationMs` after `delayMs`, along `curve`, and back again first when it `autoreverses`.
/// The optional `animation` field of component states.
public struct StateAnimation: Sendable, Hashable {
    /// The timing curves of UIView animations.
    public enum Curve: String, Sendable, Hashable, CaseIterable {
        case easeInOut, easeIn, easeOut, linear
    }

    public var durationMs: Double
    public var delayMs: Double
    public var curve: Curve
    /// `UIViewAnimationOptionAutoreverse`: to the new values and back over twice the duration,
    /// then the new values show (written only when true).
    public var autoreverses: Bool

    public init(durationMs: Double, delayMs: Double = 0, curve: Curve = .easeInOut, autoreverses: Bool = false) {
        self.durationMs = durationMs
        self.delayMs = delayMs
        self.curve = curve
        self.autoreverses = autoreverses
    }

    /// Reads `{"duration_ms", "delay_ms", "curve", "autoreverses"}`; absent delay, curve and
    /// autoreverses take their defaults.
    public init(fields: PayloadFields) throws {
        self.init(
            durationMs: try fields.number("duration_ms"),
            delayMs: try fields.optional("delay_ms", PayloadFields.number) ?? 0,
            curve: fields.has("curve") ? try fields.enumValue("curve", Curve.self) : .easeInOut,
            autoreverses: try fields.optional("autoreverses", PayloadFields.bool) ?? false)
    }
}

extension MessagePackWriter {
    /// Writes `key` and the animation's map.
    public mutating func writeField(_ key: String, _ animation: StateAnimation) {
        self.write(key)
        self.writeMapHeader(animation.autoreverses ? 4 : 3)
        self.writeField("duration_ms", number: animation.durationMs)
        self.writeField("delay_ms", number: animation.delayMs)
        self.writeField("curve", animation.curve.rawValue)
        if animation.autoreverses { self.writeField("autoreverses", bool: true) }
    }
}
