/// The bounds every scene document (schema `scene`) must keep, checked once where a scene enters
/// (a `--scene` file, a `ui/scene/` message) and before anything is allocated or converted to
/// `Int` from it: the gesture recognizer, the component host and the render worker all call
/// ``check(_:)`` first.
///
/// A scene is a description of a screen: its size and every view's size are at most
/// ``maxSide`` points (the renderer's largest image side), its views at most ``maxViews``, every
/// array at most ``maxItems`` items and every other number finite and within ±``maxMagnitude``.
public enum SceneBounds {
    /// The largest scene or view side, in points.
    public static let maxSide = 16384.0
    /// The most views a scene may declare.
    public static let maxViews = 1024
    /// The most items of any other array (recognizers of a view, overlays, enabled digits, …).
    public static let maxItems = 1024
    /// The largest magnitude of any other number (coordinates, content sizes, durations, counts).
    public static let maxMagnitude = 1e6

    /// Why a scene is out of bounds: the JSON path of the value (`$.views[2].frame.width`, `$` for the
    /// document) and what is wrong with it.
    public struct Violation: Error, Sendable, Hashable, CustomStringConvertible {
        public let path: String
        public let reason: String

        public var description: String { "\(self.path): \(self.reason)" }
    }

    /// Checks `scene` against the bounds.
    ///
    /// - Throws: ``Violation`` naming the first value out of bounds.
    public static func check(_ scene: Value) throws(Violation) {
        guard case .map(let fields) = scene else { throw Violation(path: "$", reason: "not an object") }
        // Presence and sign are the loaders' to check; here only what no screen needs.
        for key in ["width", "height"] {
            guard let side = fields[key]?.doubleValue, side > Self.maxSide else { continue }
            throw Violation(path: "$.\(key)", reason: "\(side) is above \(Int(Self.maxSide))")
        }
        if let views = fields["views"]?.arrayValue {
            guard views.count <= Self.maxViews else {
                throw Violation(path: "$.views", reason: "\(views.count) views, at most \(Self.maxViews)")
            }
            for (index, view) in views.enumerated() {
                guard let frame = view["frame"] else { continue }
                for key in ["width", "height"] {
                    guard let side = frame[key]?.doubleValue, side > Self.maxSide else { continue }
                    throw Violation(
                        path: "$.views[\(index)].frame.\(key)", reason: "\(side) is above \(Int(Self.maxSide))")
                }
            }
        }
        try scene.checkNumbers(maxMagnitude: Self.maxMagnitude, maxItems: Self.maxItems, exempt: "$.views")
    }
}

extension Value {
    /// Checks that every number in this document is finite and within ±`maxMagnitude`, and every
    /// array (except the one at JSON path `exempt`, e.g. `$.views`) holds at most `maxItems` items.
    ///
    /// - Throws: ``SceneBounds/Violation`` naming the first value out of bounds by its path.
    public func checkNumbers(maxMagnitude: Double, maxItems: Int = .max, exempt: String? = nil)
        throws(SceneBounds.Violation)
    {
        try self.checkNumbers(path: "$", maxMagnitude: maxMagnitude, maxItems: maxItems, exempt: exempt)
    }

    private func checkNumbers(path: String, maxMagnitude: Double, maxItems: Int, exempt: String?)
        throws(SceneBounds.Violation)
    {
        switch self {
        case .int(let int):
            guard Double(int).magnitude <= maxMagnitude else {
                throw SceneBounds.Violation(path: path, reason: "\(int) is outside ±\(maxMagnitude)")
            }
        case .uint(let uint):
            guard Double(uint) <= maxMagnitude else {
                throw SceneBounds.Violation(path: path, reason: "\(uint) is outside ±\(maxMagnitude)")
            }
        case .double(let double):
            guard double.isFinite, double.magnitude <= maxMagnitude else {
                throw SceneBounds.Violation(
                    path: path, reason: "\(double) is not a finite number within ±\(maxMagnitude)")
            }
        case .array(let items):
            guard path == exempt || items.count <= maxItems else {
                throw SceneBounds.Violation(path: path, reason: "\(items.count) items, at most \(maxItems)")
            }
            for (index, item) in items.enumerated() {
                try item.checkNumbers(
                    path: "\(path)[\(index)]", maxMagnitude: maxMagnitude, maxItems: maxItems, exempt: exempt)
            }
        case .map(let fields):
            for (key, item) in fields {
                try item.checkNumbers(
                    path: "\(path).\(key)", maxMagnitude: maxMagnitude, maxItems: maxItems,
                    exempt: exempt)
            }
        case .null, .bool, .string, .binary:
            break
        }
    }
}
