import Glibc
import RenderCore
import ServiceSupport

/// Memo board background images, read from disk where the render worker meets them: a path
/// comes from a board's state or config (any bus client can set it), so it is checked here once
/// before anything is allocated. A PNG (read through ``PNGCodec``, libpng) that is a regular
/// file of at most ``maxFileBytes`` with sides of at most ``maxSide`` pixels is kept; anything
/// else is a ``Failure`` naming the path and why, reported once per path, and the board draws
/// cork instead. A path is tried again only after it left the boards and came back.
public struct BackgroundImages: Sendable {
    /// A background image that cannot be shown.
    public struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        public var path: String
        public var reason: String

        public var description: String { "background image \(self.path): \(self.reason)" }
    }

    /// The largest file read (a photo of the board's size is a few MB).
    public static let maxFileBytes = 32 << 20
    /// The longest side accepted, in pixels: twice a large board at 2 pixels a point.
    public static let maxSide = 4096
    /// The longest path accepted, in bytes (Linux's `PATH_MAX`).
    public static let maxPathBytes = 4096

    private var results: [String: Result<ImageContent, Failure>] = [:]

    public init() {}

    /// The images read so far, by path.
    public var images: [String: ImageContent] {
        self.results.compactMapValues { try? $0.get() }
    }

    /// Reads the paths not tried yet and forgets those no board names any more.
    /// - Returns: the failures among the paths read now.
    public mutating func load(_ paths: Set<String>) -> [Failure] {
        for path in self.results.keys where !paths.contains(path) { self.results[path] = nil }
        var failures: [Failure] = []
        for path in paths.sorted() where self.results[path] == nil {
            let result = Result { try Self.read(path) }.mapError { error in
                error as? Failure ?? Failure(path: path, reason: "\(error)")
            }
            self.results[path] = result
            if case .failure(let failure) = result { failures.append(failure) }
        }
        return failures
    }

    /// Reads and decodes one image. The C function is `stat`.
    static func read(_ path: String) throws -> ImageContent {
        func fail(_ reason: String) -> Failure { Failure(path: path, reason: reason) }
        guard !path.isEmpty, path.utf8.count <= Self.maxPathBytes, !path.utf8.contains(0) else {
            throw fail("a path must have 1…\(Self.maxPathBytes) bytes and no NUL")
        }
        guard path.lowercased().hasSuffix(".png") else { throw fail("only PNG images are read (a .png path)") }
        var status = stat()
        guard stat(path, &status) == 0 else { throw fail(String(cString: strerror(errno))) }
        // A FIFO or a device would block the worker or never end.
        guard status.st_mode & S_IFMT == S_IFREG else { throw fail("not a regular file") }
        guard Int(status.st_size) <= Self.maxFileBytes else {
            throw fail("\(status.st_size) bytes, above the \(Self.maxFileBytes) read")
        }
        let bytes: [UInt8]
        do {
            bytes = try TextFile.bytes(path, maxBytes: Self.maxFileBytes)
        } catch {
            throw fail("\(error)")
        }
        let (width, height) = try Self.size(bytes, fail)
        guard width <= Self.maxSide, height <= Self.maxSide else {
            throw fail("\(width)×\(height) pixels, above \(Self.maxSide) a side")
        }
        do {
            return try ImageContent(try PNGCodec.decode(bytes))
        } catch {
            throw fail("\(error)")
        }
    }

    /// The width and height in a PNG's header (its first chunk, `IHDR`), read before decoding
    /// so an oversized image is refused before its pixels are allocated.
    private static func size(_ bytes: [UInt8], _ fail: (String) -> Failure) throws -> (Int, Int) {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard bytes.count >= 24, Array(bytes[0..<8]) == signature, Array(bytes[12..<16]) == Array("IHDR".utf8)
        else { throw fail("not a PNG (no PNG signature and header)") }
        let word = { (offset: Int) in bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (word(16), word(20))
    }
}
