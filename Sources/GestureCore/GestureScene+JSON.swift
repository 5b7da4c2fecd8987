import BusSchema

extension GestureScene {
    /// Loads a scene file (schema `scene` v1): size, views (frame, parent, z) and their recognizers
    /// with settings and relationships. Keys the recognizer does not use (components, styling) are
    /// ignored; disabled recognizers (`"enabled": false`) are left out.
    ///
    /// - Throws: ``SceneError`` naming the field: missing or mistyped fields, unknown kinds,
    ///   directions or edges, duplicate view ids or recognizer names, relationships or parents that
    ///   name nothing.
    public static func load(json text: String) throws(SceneError) -> GestureScene {
        let root: Value
        do {
            root = try JSONReader.parse(text)
        } catch {
            throw SceneError(.invalidJSON, field: "$", "\(error)")
        }
        do {
            try SceneBounds.check(root)
        } catch {
            throw SceneError(.invalidValue, field: error.path, error.reason)
        }
        let document = Fields(root, "$")
        let width = try document.number("width", positive: true)
        let height = try document.number("height", positive: true)
        var views: [View] = []
        for (index, viewValue) in try document.array("views").enumerated() {
            let view = Fields(viewValue, "views[\(index)]")
            let recognizers = try view.optionalArray("recognizers") ?? []
            var specs: [Recognizer] = []
            for (recognizerIndex, recognizerValue) in recognizers.enumerated() {
                let fields = Fields(recognizerValue, "\(view.path).recognizers[\(recognizerIndex)]")
                if try fields.optionalBool("enabled") == false { continue }
                specs.append(try Self.recognizer(fields))
            }
            views.append(
                View(
                    id: try view.string("id"), frame: try view.rect("frame"), parent: try view.optionalString("parent"),
                    z: try view.optionalInt("z") ?? 0, recognizers: specs))
        }
        try Self.checkReferences(views)
        return GestureScene(width: width, height: height, views: views)
    }

    private static func recognizer(_ fields: Fields) throws(SceneError) -> Recognizer {
        let kindName = try fields.string("kind")
        guard let kind = GestureEvent.Kind(rawValue: kindName) else {
            throw SceneError(.invalidValue, field: fields.path + ".kind", "unknown recognizer kind '\(kindName)'")
        }
        var settings = RecognizerSettings.defaults(for: kind)
        if let settingsValue = try fields.optionalObject("settings") {
            try Self.apply(Fields(settingsValue, fields.path + ".settings"), to: &settings)
        }
        return Recognizer(
            name: try fields.string("name"), kind: kind, settings: settings,
            requireToFail: try fields.optionalStrings("require_to_fail") ?? [],
            simultaneousWith: try fields.optionalStrings("simultaneous_with") ?? [],
            receiveRegion: try fields.optionalRect("receive_region"),
            cancelsTouches: try fields.optionalBool("cancels_touches") ?? true)
    }

    private static func apply(_ fields: Fields, to settings: inout RecognizerSettings) throws(SceneError) {
        if let value = try fields.optionalInt("taps_required", minimum: 1) { settings.tapsRequired = value }
        if let value = try fields.optionalInt("touches_required", minimum: 1) { settings.touchesRequired = value }
        if let value = try fields.optionalInt("min_touches", minimum: 1) { settings.minTouches = value }
        if let value = try fields.optionalInt("max_touches", minimum: 1) { settings.maxTouches = value }
        if let value = try fields.optionalNumber("min_duration_ms") { settings.minDurationMs = value }
        if let value = try fields.optionalNumber("allowable_movement") { settings.allowableMovement = value }
        if let value = try fields.optionalNumber("slop") { settings.slop = value }
        if let value = try fields.optionalNumber("double_tap_timeout_ms") { settings.doubleTapTimeoutMs = value }
        if let value = try fields.optionalNumber("double_tap_min_ms") { settings.doubleTapMinMs = value }
        if let value = try fields.optionalNumber("double_tap_distance") { settings.doubleTapDistance = value }
        if let value = try fields.optionalNumber("min_velocity") { settings.minVelocity = value }
        if let value = try fields.optionalNumber("min_distance") { settings.minDistance = value }
        if let value = try fields.optionalNumber("max_angle_deg") {
            guard value <= 90 else {
                throw SceneError(.invalidValue, field: fields.path + ".max_angle_deg", "must be at most 90")
            }
            settings.maxAngleDegrees = value
        }
        if let value = try fields.optionalNumber("edge_width") { settings.edgeWidth = value }
        if let value = try fields.optionalNumber("pinch_slop") { settings.pinchSlop = value }
        if let value = try fields.optionalNumber("rotation_slop") { settings.rotationSlop = value }
        if let names = try fields.optionalStrings("directions") {
            settings.directions = try Self.enumSet(
                names, GestureEvent.Direction.self, field: fields.path + ".directions")
        }
        if let names = try fields.optionalStrings("edges") {
            settings.edges = try Self.enumSet(names, GestureEvent.Edge.self, field: fields.path + ".edges")
        }
    }

    private static func enumSet<E: RawRepresentable & Hashable>(
        _ names: [String], _: E.Type, field: String
    ) throws(SceneError) -> Set<E> where E.RawValue == String {
        var set: Set<E> = []
        for (index, name) in names.enumerated() {
            guard let value = E(rawValue: name) else {
                throw SceneError(.invalidValue, field: "\(field)[\(index)]", "unknown value '\(name)'")
            }
            set.insert(value)
        }
        return set
    }

    private static func checkReferences(_ views: [View]) throws(SceneError) {
        var viewIDs: Set<String> = []
        var names: Set<String> = []
        for (index, view) in views.enumerated() {
            guard viewIDs.insert(view.id).inserted else {
                throw SceneError(.badReference, field: "views[\(index)].id", "view id '\(view.id)' is used twice")
            }
            for (recognizerIndex, recognizer) in view.recognizers.enumerated() {
                guard names.insert(recognizer.name).inserted else {
                    throw SceneError(
                        .badReference, field: "views[\(index)].recognizers[\(recognizerIndex)].name",
                        "recognizer name '\(recognizer.name)' is used twice")
                }
            }
        }
        for (index, view) in views.enumerated() {
            if let parent = view.parent, !viewIDs.contains(parent) {
                throw SceneError(.badReference, field: "views[\(index)].parent", "no view has id '\(parent)'")
            }
            for (recognizerIndex, recognizer) in view.recognizers.enumerated() {
                let path = "views[\(index)].recognizers[\(recognizerIndex)]"
                for (key, list) in [
                    ("require_to_fail", recognizer.requireToFail), ("simultaneous_with", recognizer.simultaneousWith),
                ] {
                    for (nameIndex, name) in list.enumerated() where !names.contains(name) {
                        throw SceneError(
                            .badReference, field: "\(path).\(key)[\(nameIndex)]", "no recognizer is named '\(name)'")
                    }
                }
            }
        }
    }
}

/// Typed access to one JSON object's fields, with errors that name the field path.
private struct Fields {
    let value: Value
    let path: String

    init(_ value: Value, _ path: String) {
        self.value = value
        self.path = path
    }

    private func field(_ key: String) throws(SceneError) -> Value? {
        guard self.value.mapValue != nil else {
            throw SceneError(.invalidValue, field: self.path, "expected an object, found \(self.value.jsonTypeName)")
        }
        let field = self.value[key]
        return field == .null ? nil : field
    }

    private func required(_ key: String) throws(SceneError) -> Value {
        guard let value = try self.field(key) else {
            throw SceneError(.missingField, field: "\(self.path).\(key)", "required field is missing")
        }
        return value
    }

    private func mismatch(_ key: String, _ expected: String, _ value: Value) -> SceneError {
        SceneError(.invalidValue, field: "\(self.path).\(key)", "expected \(expected), found \(value.jsonTypeName)")
    }

    func string(_ key: String) throws(SceneError) -> String {
        let value = try self.required(key)
        guard let string = value.stringValue, !string.isEmpty else {
            throw self.mismatch(key, "a non-empty string", value)
        }
        return string
    }

    func optionalString(_ key: String) throws(SceneError) -> String? {
        guard self.value[key] != nil, self.value[key] != .null else { return nil }
        return try self.string(key)
    }

    func number(_ key: String, positive: Bool = false) throws(SceneError) -> Double {
        let value = try self.required(key)
        guard let number = value.doubleValue else { throw self.mismatch(key, "a number", value) }
        guard number.isFinite, positive ? number > 0 : number >= 0 else {
            throw SceneError(.invalidValue, field: "\(self.path).\(key)", "\(number) is out of range")
        }
        return number
    }

    func optionalNumber(_ key: String) throws(SceneError) -> Double? {
        guard try self.field(key) != nil else { return nil }
        return try self.number(key)
    }

    func optionalInt(_ key: String, minimum: Int = .min) throws(SceneError) -> Int? {
        guard let value = try self.field(key) else { return nil }
        guard let int = value.intValue.flatMap({ Int(exactly: $0) }) else {
            throw self.mismatch(key, "an integer", value)
        }
        guard int >= minimum else {
            throw SceneError(.invalidValue, field: "\(self.path).\(key)", "\(int) is below \(minimum)")
        }
        return int
    }

    func optionalBool(_ key: String) throws(SceneError) -> Bool? {
        guard let value = try self.field(key) else { return nil }
        guard let bool = value.boolValue else { throw self.mismatch(key, "true or false", value) }
        return bool
    }

    func array(_ key: String) throws(SceneError) -> [Value] {
        let value = try self.required(key)
        guard let array = value.arrayValue else { throw self.mismatch(key, "an array", value) }
        return array
    }

    func optionalArray(_ key: String) throws(SceneError) -> [Value]? {
        guard try self.field(key) != nil else { return nil }
        return try self.array(key)
    }

    func optionalObject(_ key: String) throws(SceneError) -> Value? {
        guard let value = try self.field(key) else { return nil }
        guard value.mapValue != nil else { throw self.mismatch(key, "an object", value) }
        return value
    }

    func optionalStrings(_ key: String) throws(SceneError) -> [String]? {
        guard let array = try self.optionalArray(key) else { return nil }
        var strings: [String] = []
        for (index, element) in array.enumerated() {
            guard let string = element.stringValue else { throw self.mismatch("\(key)[\(index)]", "a string", element) }
            strings.append(string)
        }
        return strings
    }

    func rect(_ key: String) throws(SceneError) -> Rect {
        let value = try self.required(key)
        let fields = Fields(value, "\(self.path).\(key)")
        guard value.mapValue != nil else { throw self.mismatch(key, "an object", value) }
        return Rect(
            x: try fields.signed("x"), y: try fields.signed("y"), width: try fields.number("width"),
            height: try fields.number("height"))
    }

    func optionalRect(_ key: String) throws(SceneError) -> Rect? {
        guard try self.field(key) != nil else { return nil }
        return try self.rect(key)
    }

    private func signed(_ key: String) throws(SceneError) -> Double {
        let value = try self.required(key)
        guard let number = value.doubleValue, number.isFinite else { throw self.mismatch(key, "a number", value) }
        return number
    }
}
