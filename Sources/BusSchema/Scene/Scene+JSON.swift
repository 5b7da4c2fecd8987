extension Scene {
    /// Parses and checks a scene file.
    ///
    /// - Parameter file: the file name errors name.
    /// - Throws: ``SceneError`` naming the file, the JSON path and the rule of the first problem:
    ///   text that is not JSON, a property the schema does not declare, a wrong type, a value out of
    ///   range or past ``SceneBounds``, a view outside the screen, a duplicate id, or a reference
    ///   (parent, relationship, target, scroll view, overlay, zoom view) that names nothing.
    public init(json text: String, file: String = "scene") throws(SceneError) {
        let root: Value
        do {
            root = try JSONReader.parse(text)
        } catch {
            throw SceneError(file: file, path: "$", rule: .json, "not JSON: \(error)")
        }
        try self.init(value: root, file: file)
    }

    /// Checks a scene document already parsed (a file, or one published on `ui/scene/`).
    ///
    /// - Parameter file: where it came from, for errors (a path or a topic).
    /// - Throws: ``SceneError`` as ``init(json:file:)`` does.
    public init(value root: Value, file: String = "scene") throws(SceneError) {
        do throws(SceneError) {
            do {
                try SceneBounds.check(root)
            } catch {
                throw SceneError(path: error.path, rule: .bounds, error.reason)
            }
            self = try Self.read(try SceneObject(root, path: "$"))
            try self.checkIDs()
            try self.checkReferences()
        } catch {
            var error = error
            error.file = file
            throw error
        }
    }

    private static func read(_ root: SceneObject) throws(SceneError) -> Scene {
        let side = 0...SceneBounds.maxSide
        let width = try root.requiredNumber("width", in: side, above: 0)
        let height = try root.requiredNumber("height", in: side, above: 0)
        var scene = Scene(
            name: try root.string("name") ?? "scene", width: width, height: height,
            background: try root.color("background") ?? Self.defaultBackground,
            description: try root.text("description"), views: [])
        let views = try root.array("views") { value, path throws(SceneError) in
            try Self.view(try SceneObject(value, path: path), screen: (width, height))
        }
        guard let views else {
            throw SceneError(path: root.child("views"), rule: .required, "required property is missing")
        }
        scene.views = views
        try root.finish()
        return scene
    }

    private static func view(_ object: SceneObject, screen: (width: Double, height: Double)) throws(SceneError)
        -> View
    {
        let frameObject = try object.requiredObject("frame")
        let frame = try Self.frame(frameObject)
        try frameObject.finish()
        for (key, low, high, limit) in [
            ("x", frame.x, frame.x + frame.width, screen.width), ("y", frame.y, frame.y + frame.height, screen.height),
        ] where low < 0 || high > limit {
            throw SceneError(
                path: frameObject.child(key), rule: .insideScreen,
                "the view spans \(low)…\(high) but the screen's \(key == "x" ? "width" : "height") is \(limit)")
        }
        let cornerRadius = try object.number("corner_radius", in: 0...(.infinity)) ?? 0
        var view = View(
            id: try Self.id(object, "id"), frame: frame, parent: try object.string("parent"),
            z: try object.int("z") ?? 0, background: try object.color("background"), cornerRadius: cornerRadius,
            shadow: try object.object("shadow").map(Self.shadow),
            innerShadow: try object.object("inner_shadow").map(Self.shadow))
        if let blur = try object.object("blur") { view.blur = try Self.blur(blur, cornerRadius: cornerRadius) }
        if let component = try object.object("component") {
            view.component = try Self.component(component, frame: frame, parent: view.parent)
        }
        view.recognizers =
            try object.array("recognizers") { value, path throws(SceneError) in
                try Self.recognizer(try SceneObject(value, path: path))
            } ?? []
        try object.finish()
        return view
    }

    /// An id that becomes a topic segment: non-empty, without `/`.
    static func id(_ object: SceneObject, _ key: String) throws(SceneError) -> String {
        let id = try object.requiredString(key)
        guard !id.contains("/") else {
            throw SceneError(
                path: object.child(key), rule: .pattern, "'\(id)' must not contain '/' (it names a topic segment)")
        }
        return id
    }

    static func frame(_ object: SceneObject) throws(SceneError) -> Frame {
        let coordinate = -SceneBounds.maxMagnitude...SceneBounds.maxMagnitude
        let side = 0...SceneBounds.maxSide
        return Frame(
            x: try object.requiredNumber("x", in: coordinate), y: try object.requiredNumber("y", in: coordinate),
            width: try object.requiredNumber("width", in: side), height: try object.requiredNumber("height", in: side))
    }

    private static func shadow(_ object: SceneObject) throws(SceneError) -> Shadow {
        var shadow = Shadow.defaults
        if let color = try object.color("color") { shadow.color = color }
        if let opacity = try object.number("opacity", in: 0...1) { shadow.opacity = opacity }
        if let offset = try object.object("offset") {
            shadow.offsetX = try offset.requiredNumber("x")
            shadow.offsetY = try offset.requiredNumber("y")
            try offset.finish()
        }
        if let radius = try object.number("radius", in: 0...(.infinity)) { shadow.radius = radius }
        try object.finish()
        return shadow
    }

    private static func blur(_ object: SceneObject, cornerRadius: Double) throws(SceneError) -> Blur {
        let level = try object.enumValue("level", Blur.Level.self)
        let sigma = try object.number("sigma", in: 0...(.infinity))
        let mask = try object.number("corner_radius", in: 0...(.infinity)) ?? cornerRadius
        try object.finish()
        switch (level, sigma) {
        case (_?, _?):
            throw SceneError(path: object.child("sigma"), rule: .consistent, "give a level or a sigma, not both")
        case (let level, nil): return Blur(radius: .level(level ?? .default), cornerRadius: mask)
        case (nil, let sigma?): return Blur(radius: .gaussian(sigma: sigma), cornerRadius: mask)
        }
    }

    private static func recognizer(_ object: SceneObject) throws(SceneError) -> Recognizer {
        let kind = try object.requiredEnum("kind", GestureEvent.Kind.self)
        var settings = RecognizerSettings.defaults(for: kind)
        if let settingsObject = try object.object("settings") {
            try settings.read(settingsObject, kind: kind)
        }
        var receiveRegion: Frame?
        if let region = try object.object("receive_region") {
            receiveRegion = try Self.frame(region)
            try region.finish()
        }
        let recognizer = Recognizer(
            name: try Self.id(object, "name"), kind: kind, settings: settings,
            requireToFail: try object.strings("require_to_fail") ?? [],
            simultaneousWith: try object.strings("simultaneous_with") ?? [], receiveRegion: receiveRegion,
            cancelsTouches: try object.bool("cancels_touches") ?? true, targets: try object.strings("targets"),
            enabled: try object.bool("enabled") ?? true)
        try object.finish()
        return recognizer
    }
}
