import BusSchema
import InputCore

/// The scene size from a scene file (the frames of script and recording files: ``FileFrames``).
public enum SourceFiles {
    /// The `width` and `height` of a scene file (schema `scene`).
    ///
    /// - Throws: a description of what is missing.
    public static func sceneSize(json text: String) throws -> (width: Double, height: Double) {
        let scene = try JSONReader.parse(text)
        try SceneBounds.check(scene)
        guard let width = scene["width"]?.doubleValue, let height = scene["height"]?.doubleValue, width > 0,
            height > 0
        else { throw SceneSizeError(description: "the scene has no positive 'width' and 'height'") }
        return (width, height)
    }
}

/// A scene file without a usable size.
public struct SceneSizeError: Error, CustomStringConvertible {
    public var description: String
}
