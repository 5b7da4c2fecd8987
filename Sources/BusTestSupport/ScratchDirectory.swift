import Foundation

/// A directory of its own under the system's temporary directory, for one test's sockets and
/// files; the caller removes it (`defer { ScratchDirectory.remove(path) }`).
public enum ScratchDirectory {
    /// Makes `<tmp>/<prefix>-<8 random hex digits>` and returns its path.
    public static func make(_ prefix: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "\(prefix)-\(UUID().uuidString.prefix(8))"
        ).path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Removes `path` and everything in it; a directory already gone is not an error.
    public static func remove(_ path: String) {
        try? FileManager.default.removeItem(atPath: path)
    }
}
