import BusSchema

extension GestureScene {
    /// The scene with a run-time configuration (schema `recognizer.config`) applied to the
    /// recognizer it names: a swipe's accepted directions and the receive region replace the
    /// scene's where the configuration gives them (as an iOS controller sets a swipe's
    /// `direction` and answers `gestureRecognizer(_:shouldReceive:)`). Nothing else changes, so
    /// the recognizers keep their order and relationships.
    ///
    /// - Throws: ``SceneError``: rule `reference` at `$.recognizer` when no recognizer has that
    ///   name; rule `type` at `$.directions` when it names a recognizer that is not a swipe.
    public func configured(_ configuration: RecognizerConfig) throws(SceneError) -> GestureScene {
        for (viewIndex, view) in self.views.enumerated() {
            guard let index = view.recognizers.firstIndex(where: { $0.name == configuration.recognizer }) else {
                continue
            }
            var recognizer = view.recognizers[index]
            if let directions = configuration.directions {
                guard recognizer.kind == .swipe else {
                    throw SceneError(
                        file: "recognizer.config", path: "$.directions", rule: .type,
                        "recognizer '\(recognizer.name)' is a \(recognizer.kind.rawValue), not a swipe")
                }
                recognizer.settings.directions = Set(directions)
            }
            if let region = configuration.receiveRegion {
                recognizer.receiveRegion = region
            }
            var scene = self
            scene.views[viewIndex].recognizers[index] = recognizer
            return scene
        }
        throw SceneError(
            file: "recognizer.config", path: "$.recognizer", rule: .reference,
            "no recognizer in the scene is named '\(configuration.recognizer)'")
    }
}
