extension RecognizerSettings {
    /// The scene `settings` keys a recognizer of `kind` reads; any other is refused.
    public static func keys(for kind: GestureEvent.Kind) -> [String] {
        let tap = ["taps_required", "touches_required", "slop", "double_tap_timeout_ms", "double_tap_min_ms"]
        let pan = ["min_touches", "max_touches", "slop"]
        switch kind {
        case .tap, .doubleTap: return tap + ["double_tap_distance"]
        case .longPress: return ["touches_required", "min_duration_ms", "allowable_movement"]
        case .pan: return pan
        case .edgePan: return pan + ["edges", "edge_width"]
        case .swipe: return ["touches_required", "directions", "min_velocity", "min_distance", "max_angle_deg"]
        case .pinch: return ["pinch_slop"]
        case .rotation: return ["rotation_slop"]
        case .touchDown: return []
        }
    }

    /// Reads a recognizer's `settings` object over the defaults: only the keys `kind` reads.
    ///
    /// - Throws: ``SceneError``: rule `additionalProperties` naming a key the kind does not read
    ///   (a `taps_required` on a pan would be silently ignored), or the rule a value breaks.
    mutating func read(_ object: SceneObject, kind: GestureEvent.Kind) throws(SceneError) {
        let keys = Self.keys(for: kind)
        let nonNegative = 0...Double.infinity
        for key in keys {
            switch key {
            case "taps_required": self.tapsRequired = try object.int(key, in: 1...Int.max) ?? self.tapsRequired
            case "touches_required":
                self.touchesRequired = try object.int(key, in: 1...Int.max) ?? self.touchesRequired
            case "min_touches": self.minTouches = try object.int(key, in: 1...Int.max) ?? self.minTouches
            case "max_touches": self.maxTouches = try object.int(key, in: 1...Int.max) ?? self.maxTouches
            case "min_duration_ms": self.minDuration = try Self.duration(object, key) ?? self.minDuration
            case "allowable_movement":
                self.allowableMovement = try object.number(key, in: nonNegative) ?? self.allowableMovement
            case "slop": self.slop = try object.number(key, in: nonNegative) ?? self.slop
            case "double_tap_timeout_ms":
                self.doubleTapTimeout = try Self.duration(object, key) ?? self.doubleTapTimeout
            case "double_tap_min_ms":
                self.doubleTapMinInterval = try Self.duration(object, key) ?? self.doubleTapMinInterval
            case "double_tap_distance":
                self.doubleTapDistance = try object.number(key, in: nonNegative) ?? self.doubleTapDistance
            case "min_velocity": self.minVelocity = try object.number(key, in: nonNegative) ?? self.minVelocity
            case "min_distance": self.minDistance = try object.number(key, in: nonNegative) ?? self.minDistance
            case "max_angle_deg": self.maxAngleDegrees = try object.number(key, in: 0...90) ?? self.maxAngleDegrees
            case "edge_width": self.edgeWidth = try object.number(key, in: nonNegative) ?? self.edgeWidth
            case "pinch_slop": self.pinchSlop = try object.number(key, in: nonNegative) ?? self.pinchSlop
            case "rotation_slop": self.rotationSlop = try object.number(key, in: nonNegative) ?? self.rotationSlop
            case "directions":
                self.directions = try Self.set(object, key, GestureEvent.Direction.self) ?? self.directions
            case "edges": self.edges = try Self.set(object, key, GestureEvent.Edge.self) ?? self.edges
            default: preconditionFailure("keys(for:) lists a setting read() does not know: \(key)")
            }
        }
        guard self.maxTouches >= self.minTouches else {
            throw SceneError(
                path: object.child("max_touches"), rule: .consistent,
                "\(self.maxTouches) is below min_touches \(self.minTouches)")
        }
        do throws(SceneError) {
            try object.finish()
        } catch {
            let key = error.path.split(separator: ".").last.map(String.init) ?? error.path
            throw SceneError(
                path: error.path, rule: error.rule,
                "a \(kind.rawValue) has no setting '\(key)' (it reads: \(keys.isEmpty ? "none" : keys.joined(separator: ", ")))"
            )
        }
    }

    /// A `*_ms` setting.
    private static func duration(_ object: SceneObject, _ key: String) throws(SceneError) -> Duration? {
        try object.number(key, in: 0...Double.infinity).map { Duration.milliseconds(fractional: $0) }
    }

    private static func set<Element: RawRepresentable & CaseIterable & Hashable>(
        _ object: SceneObject, _ key: String, _ type: Element.Type
    ) throws(SceneError) -> Set<Element>? where Element.RawValue == String {
        try object.array(
            key, unique: true,
            { value, path throws(SceneError) in
                try SceneObject.enumValue(value, Element.self, path: path)
            }
        ).map { Set($0) }
    }
}
