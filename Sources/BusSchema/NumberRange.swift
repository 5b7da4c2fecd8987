/// A closed range of finite numbers a message field may hold: the `minimum`/`maximum` its schema
/// states (`schemas/<id>/v1.json`).
///
/// Decoders check every number at the edge against its range and refuse the message otherwise
/// (``MessagePackReader/readNumber(_:in:)``), so a NaN, an infinity or 1e308 never reaches a state
/// machine; producers whose arithmetic can leave the range (a velocity over a nanosecond, a pinch
/// from a zero span) clamp to it with ``clamp(_:)`` before publishing.
public struct NumberRange: Sendable, Hashable, CustomStringConvertible {
    public let lower: Double
    public let upper: Double

    public init(_ lower: Double, _ upper: Double) {
        precondition(lower.isFinite && upper.isFinite && lower <= upper, "a range of finite bounds")
        self.lower = lower
        self.upper = upper
    }

    /// Whether `value` is finite and within the range (NaN never is).
    @inline(__always)
    public func contains(_ value: Double) -> Bool { value >= self.lower && value <= self.upper }

    /// `value` moved into the range: NaN becomes the value nearest 0.
    public func clamp(_ value: Double) -> Double {
        guard !value.isNaN else { return min(max(0, self.lower), self.upper) }
        return min(max(value, self.lower), self.upper)
    }

    public var description: String { "\(self.lower)...\(self.upper)" }

    /// Positions in scene points (touch contacts, gesture locations, canvas points): far beyond
    /// any screen, small enough that sums, differences and products with a scale stay finite and
    /// convert to `Int`.
    public static let coordinate = NumberRange(-1e6, 1e6)
    /// Sizes in points (a contact's major axis).
    public static let size = NumberRange(0, 1e6)
    /// Translations (points) and velocities (points, scale or radians per second).
    public static let motion = NumberRange(-1e7, 1e7)
    /// A pinch scale relative to its start span.
    public static let scale = NumberRange(0, 1e6)
    /// An angle in radians, summed over a gesture.
    public static let angle = NumberRange(-1e6, 1e6)
    /// Source time in milliseconds (`t_ns` / 10^6 of a non-negative int64).
    public static let timeMs = NumberRange(0, 1e13)
    /// Any finite number: what a schema `number` without bounds allows.
    public static let finite = NumberRange(-.greatestFiniteMagnitude, .greatestFiniteMagnitude)
    /// The finite numbers from `lower` up.
    public static func atLeast(_ lower: Double) -> NumberRange { NumberRange(lower, .greatestFiniteMagnitude) }
    /// The finite numbers up to `upper`.
    public static func atMost(_ upper: Double) -> NumberRange { NumberRange(-.greatestFiniteMagnitude, upper) }
    /// A fraction (pressure, opacity, progress).
    public static let unit = NumberRange(0, 1)
}

extension MessagePackReader {
    /// Reads a number that must lie in `range`, naming `field` and the value otherwise.
    ///
    /// - Throws: ``CodecError`` (`invalid_value`) for NaN, an infinity or a value outside the range.
    public mutating func readNumber(_ field: String, in range: NumberRange) throws -> Double {
        let start = self.offset
        let value = try self.readDouble()
        guard range.contains(value) else {
            throw CodecError(.invalidValue, offset: start, context: "\(field): \(value) is outside \(range)")
        }
        return value
    }

    /// Reads an integer that must lie in `range`, naming `field` and the value otherwise.
    ///
    /// - Throws: ``CodecError`` (`invalid_value`) for a value outside the range.
    public mutating func readInteger(_ field: String, in range: ClosedRange<Int>) throws -> Int {
        let start = self.offset
        let value = try self.readInt()
        guard value >= range.lowerBound, value <= range.upperBound else {
            throw CodecError(.invalidValue, offset: start, context: "\(field): \(value) is outside \(range)")
        }
        return Int(value)
    }
}

extension Int {
    /// `value` rounded as `rule` says and clamped to ±`limit`; 0 for NaN. For the few places
    /// where a machine or the renderer turns a computed Double into an index, so no value can
    /// trap the conversion.
    public init(
        saturating value: Double, _ rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero, limit: Int = 1 << 40
    ) {
        guard !value.isNaN else {
            self = 0
            return
        }
        self = Int(Swift.min(Swift.max(value.rounded(rule), -Double(limit)), Double(limit)))
    }
}
