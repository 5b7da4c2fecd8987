import BusSchema
import RenderCore
import RenderService
import ServiceSupport

/// `render-worker render --scene S --state STATE.json OUT.png [--scale K]`: one frame of a
/// scene with component states (one state object, an array of them, or JSON lines).
enum RenderCommand {
    static func run(_ options: inout Options) throws {
        guard options.positionals.count == 2, let scenePath = options.string("scene") else {
            throw UsageError("render needs --scene S [--state STATE.json] OUT.png")
        }
        let scale = try options.double("scale", in: 0.25...8) ?? 2
        let scene = try SceneFile.load(scenePath)
        var states: [String: ComponentState] = [:]
        if let statePath = options.string("state") {
            var documentsByInstance: [String: Value] = [:]
            let text = String(decoding: try Files.read(statePath), as: UTF8.self)
            let documents: [Value]
            if let whole = try? JSONReader.parse(text) {
                documents = whole.arrayValue ?? [whole]
            } else {
                documents = try text.split(separator: "\n").filter { !$0.allSatisfy(\.isWhitespace) }
                    .map { try JSONReader.parse(String($0)) }
            }
            for (index, state) in documents.enumerated() {
                guard let instance = state["instance"]?.stringValue else {
                    throw ConfigurationError("\(statePath): state \(index + 1) has no \"instance\"")
                }
                documentsByInstance[instance] = state
            }
            let problems = StateCheck.problems(documentsByInstance, scene: scene, file: statePath)
            guard problems.isEmpty else { throw ConfigurationError(problems.joined(separator: "\n")) }
            states = try StateCheck.decode(documentsByInstance, scene: scene, file: statePath)
        }
        var backgrounds = BackgroundImages()
        for failure in backgrounds.load(SceneLayers.backgroundPaths(scene: scene, states: states)) {
            Log.error("render-worker", "background_unreadable: \(failure) (drawing cork)")
        }
        let (size, root) = SceneLayers.build(scene: scene, states: states, images: backgrounds.images)
        let renderer = LayerRenderer(font: try FontFace.systemJapanese())
        let image = try renderer.render(
            root, width: Int((size.width * scale).rounded()), height: Int((size.height * scale).rounded()), scale: scale
        )
        try Files.writeAtomically(try PNGCodec.encode(image), to: options.positionals[1])
    }
}
