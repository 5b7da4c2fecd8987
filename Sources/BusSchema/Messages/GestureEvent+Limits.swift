/// What the generated ``GestureEvent`` needs by hand: the ranges producers clamp to, and a probe
/// that reads only the source time.
extension GestureEvent {
    /// The range of each number (the schema's `minimum`/`maximum`): the decoders refuse a value
    /// outside it, and ``clampNumbers()`` keeps a recognizer's output within it.
    public enum Limits {
        public static let tMs = NumberRange.timeMs
        public static let location = NumberRange.coordinate
        /// Translations and velocities, per component.
        public static let motion = NumberRange.motion
        public static let scale = NumberRange.scale
        public static let rotation = NumberRange.angle
        /// `scale_velocity` and `rotation_velocity`.
        public static let rate = NumberRange.motion
        public static let touches = 0...TouchFrame.maxContacts
    }

    /// Moves every number into its range (NaN to the value nearest 0), so what a recognizer
    /// publishes always decodes: its velocity over a nanosecond or its scale from a zero span
    /// would otherwise be refused by every subscriber.
    public mutating func clampNumbers() {
        // Nearly every event is already within range: reading is cheaper than rebuilding each number.
        guard !self.numbersWithinLimits else { return }
        self.tMs = Limits.tMs.clamp(self.tMs)
        self.x = Limits.location.clamp(self.x)
        self.y = Limits.location.clamp(self.y)
        self.touches = min(max(self.touches, Limits.touches.lowerBound), Limits.touches.upperBound)
        let motion = { (vector: Vector) in Vector(x: Limits.motion.clamp(vector.x), y: Limits.motion.clamp(vector.y)) }
        self.translation = self.translation.map(motion)
        self.velocity = self.velocity.map(motion)
        self.scale = self.scale.map(Limits.scale.clamp)
        self.rotation = self.rotation.map(Limits.rotation.clamp)
        self.scaleVelocity = self.scaleVelocity.map(Limits.rate.clamp)
        self.rotationVelocity = self.rotationVelocity.map(Limits.rate.clamp)
    }

    /// Whether every number is finite and within its range (what the decoders accept), so
    /// ``clampNumbers()`` would change nothing.
    public var numbersWithinLimits: Bool {
        let motion = { (vector: Vector) in Limits.motion.contains(vector.x) && Limits.motion.contains(vector.y) }
        return Limits.tMs.contains(self.tMs) && Limits.location.contains(self.x) && Limits.location.contains(self.y)
            && Limits.touches.contains(self.touches) && (self.translation.map(motion) ?? true)
            && (self.velocity.map(motion) ?? true) && (self.scale.map(Limits.scale.contains) ?? true)
            && (self.rotation.map(Limits.rotation.contains) ?? true)
            && (self.scaleVelocity.map(Limits.rate.contains) ?? true)
            && (self.rotationVelocity.map(Limits.rate.contains) ?? true)
    }

    /// Reads only `t_ms` of an encoded event (the source time of the frame that caused it): what
    /// a latency probe needs, at a fraction of a full decode.
    ///
    /// Where ``encode(to:)`` puts it, first in the map, it is read without reading on (a probe
    /// does not check the rest; a consumer that decodes events does). Any other layout is read
    /// through, every other field skipped.
    /// - Returns: nil if the map has no `t_ms`.
    /// - Throws: ``CodecError`` if `payload`, read through, is not one MessagePack map, or `t_ms` is
    ///   not a number.
    public static func tMs(inMessagePack payload: [UInt8]) throws -> Double? {
        try payload.withUnsafeBytes { raw in
            var reader = MessagePackReader(raw)
            var first: Double?
            if reader.scan({ scanner in
                guard scanner.mapHeader() != nil, scanner.literal("t_ms"), let tMs = scanner.number() else {
                    return false
                }
                first = tMs
                return true
            }) {
                return first
            }
            var tMs: Double?
            try reader.readMap { reader, key in
                switch key {
                case "t_ms": tMs = try reader.readDouble()
                default: try reader.skip()
                }
            }
            try reader.expectEnd()
            return tMs
        }
    }
}
