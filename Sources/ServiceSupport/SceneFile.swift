import BusSchema

/// Reads a scene file (`--scene`) into the one typed ``Scene``.
public enum SceneFile {
    /// The scene in `path`, parsed and checked.
    ///
    /// - Throws: ``SceneError`` naming the file, the JSON path and the rule (tools exit with
    ///   ``Tool/dataErrorStatus``); ``ConfigurationError`` if the file cannot be read.
    public static func load(_ path: String) throws -> Scene {
        try Scene(json: try TextFile.read(path), file: path)
    }
}
