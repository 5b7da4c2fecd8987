import BusSchema
import Foundation
import GestureCore
import InputCore

/// Helpers that run touch scripts through the recognizers.
enum Replay {
    static let generator = ScenarioGenerator()

    /// The gesture events a script causes in `scene` (the standard no-scene set by default).
    static func events(_ lines: [TouchScriptLine], scene: GestureScene = .standard()) -> [GestureEvent] {
        let (frames, problems) = TouchScriptFramer.frames(for: TouchScript(lines: lines))
        precondition(problems.isEmpty, "bad test script: \(problems)")
        return GestureEngine.replay(frames, scene: scene)
    }

    /// A one-view scene of the given size holding `recognizers`.
    static func scene(
        _ recognizers: [GestureScene.Recognizer], width: Double = 800, height: Double = 800
    ) -> GestureScene {
        GestureScene(
            width: width, height: height,
            views: [
                GestureScene.View(
                    id: "v", frame: Rect(x: 0, y: 0, width: width, height: height), recognizers: recognizers)
            ])
    }

    /// A recognizer with default settings, changed by `configure`.
    static func recognizer(
        _ name: String, _ kind: GestureEvent.Kind, requireToFail: [String] = [], simultaneousWith: [String] = [],
        receiveRegion: Rect? = nil, cancelsTouches: Bool = true,
        configure: (inout RecognizerSettings) -> Void = { _ in }
    ) -> GestureScene.Recognizer {
        var settings = RecognizerSettings.defaults(for: kind)
        configure(&settings)
        return GestureScene.Recognizer(
            name: name, kind: kind, settings: settings, requireToFail: requireToFail,
            simultaneousWith: simultaneousWith, receiveRegion: receiveRegion, cancelsTouches: cancelsTouches)
    }

    static let dataDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("data")

    static func text(_ relativePath: String) -> String {
        let data = FileManager.default.contents(atPath: Self.dataDirectory.appendingPathComponent(relativePath).path)
        return String(decoding: data ?? Data(), as: UTF8.self)
    }
}

extension [GestureEvent] {
    /// The events of one recognizer (by scene name).
    func named(_ name: String) -> [GestureEvent] { self.filter { $0.name == name } }

    var states: [GestureEvent.State] { self.map(\.state) }
}
