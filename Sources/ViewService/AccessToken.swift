import Glibc
import ServiceSupport

/// The secret a page and its WebSocket must present: 32 random hex digits in a file only the
/// owner may read (0600), made on first start and kept, so a reload or a restart keeps working.
public enum AccessToken {
    /// Reads the token at `path`, or makes one there (and the directory, 0700) if there is none.
    ///
    /// - Throws: ``ViewError`` if the file cannot be made or read, is readable by others, or
    ///   does not hold a token.
    public static func load(_ path: String) throws -> String {
        if let slash = path.lastIndex(of: "/") {
            let directory = String(path[..<slash])
            if !directory.isEmpty, mkdir(directory, 0o700) != 0, errno != EEXIST {
                throw ViewError("cannot make \(directory): \(String(cString: strerror(errno)))")
            }
        }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if descriptor >= 0 {
            defer { close(descriptor) }
            let token = Self.make()
            let written = token.utf8CString.withUnsafeBytes { write(descriptor, $0.baseAddress, token.utf8.count) }
            guard written == token.utf8.count, fsync(descriptor) == 0 else {
                throw ViewError("cannot write \(path): \(String(cString: strerror(errno)))")
            }
            return token
        }
        guard errno == EEXIST else { throw ViewError("cannot make \(path): \(String(cString: strerror(errno)))") }
        var status = stat()
        guard stat(path, &status) == 0 else { throw ViewError("cannot read \(path)") }
        guard status.st_mode & 0o077 == 0 else {
            throw ViewError(
                "\(path) may be read by others (mode \(String(status.st_mode & 0o777, radix: 8))); make it 0600")
        }
        let text: String
        do {
            text = try TextFile.read(path, maxBytes: 4096)
        } catch {
            throw ViewError("\(error)")
        }
        let token = String(text.prefix { $0 != "\n" }).trimmingWhitespace
        guard !token.isEmpty else { throw ViewError("\(path) is empty") }
        guard token.utf8.count >= 32, token.utf8.allSatisfy({ Self.hexDigits.contains($0) }) else {
            throw ViewError("\(path) does not hold a token (32 or more hex digits)")
        }
        return token
    }

    /// Compares in time independent of where the strings differ.
    public static func matches(_ given: String, _ token: String) -> Bool {
        let a = Array(given.utf8)
        let b = Array(token.utf8)
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }

    private static let hexDigits = Set("0123456789abcdef".utf8)

    private static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in
            let word = generator.next() as UInt64
            let digits = String(word, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }.joined()
    }
}

extension String {
    fileprivate var trimmingWhitespace: String {
        String(self.unicodeScalars.filter { !$0.properties.isWhitespace })
    }
}

/// A problem starting or running the view service, said plainly.
public struct ViewError: Error, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
