import Glibc

/// Writes an MCAP file (https://mcap.dev/spec): JSON messages with `jsonschema` schemas.
///
/// Records go straight to the file, unchunked; the file is valid once ``finish()`` has
/// written the footer, and readers that scan records (the Python `mcap` package,
/// Foxglove) open it without an index.
public final class MCAPWriter {
    static let magic: [UInt8] = [0x89, 0x4d, 0x43, 0x41, 0x50, 0x30, 0x0d, 0x0a]

    enum Opcode: UInt8 {
        case header = 0x01
        case footer = 0x02
        case schema = 0x03
        case channel = 0x04
        case message = 0x05
        case chunk = 0x06
        case dataEnd = 0x0f
    }

    private let file: UnsafeMutablePointer<FILE>
    public let path: String
    private var record: [UInt8] = []
    private var finished = false
    public private(set) var messageCount = 0

    /// Creates `path` and writes the magic and header. The corresponding C function is `fopen`.
    ///
    /// - Throws: ``ToolError`` if the file cannot be created.
    public init(path: String, profile: String = "", library: String = "uibus bus-tap") throws {
        guard let file = fopen(path, "wb") else {
            throw ToolError("cannot create \(path): \(String(cString: strerror(errno)))")
        }
        self.file = file
        self.path = path
        try self.write(Self.magic)
        self.begin()
        self.appendString(profile)
        self.appendString(library)
        try self.end(.header)
    }

    deinit {
        try? self.finish()
    }

    /// Adds a schema record; `id` must be unique and non-zero.
    public func addSchema(id: UInt16, name: String, encoding: String = "jsonschema", data: String) throws {
        self.begin()
        self.append(id)
        self.appendString(name)
        self.appendString(encoding)
        self.appendBytes(Array(data.utf8))
        try self.end(.schema)
    }

    /// Adds a channel record for `topic` carrying `schemaID`'s messages.
    public func addChannel(
        id: UInt16, schemaID: UInt16, topic: String, encoding: String = "json", metadata: [(String, String)]
    ) throws {
        self.begin()
        self.append(id)
        self.append(schemaID)
        self.appendString(topic)
        self.appendString(encoding)
        var map: [UInt8] = []
        for (key, value) in metadata {
            for text in [key, value] {
                map.append(contentsOf: withUnsafeBytes(of: UInt32(text.utf8.count).littleEndian, Array.init))
                map.append(contentsOf: text.utf8)
            }
        }
        self.appendBytes(map)
        try self.end(.channel)
    }

    /// Adds one message on `channelID`.
    public func addMessage(channelID: UInt16, sequence: UInt32, logTime: UInt64, publishTime: UInt64, data: String)
        throws
    {
        self.begin()
        self.append(channelID)
        self.append(sequence)
        self.append(logTime)
        self.append(publishTime)
        self.record.append(contentsOf: data.utf8)
        try self.end(.message)
        self.messageCount += 1
    }

    /// Writes data end, footer and magic, and closes the file; later calls do nothing.
    public func finish() throws {
        guard !self.finished else { return }
        self.finished = true
        defer { fclose(self.file) }
        self.begin()
        self.append(UInt32(0))
        try self.end(.dataEnd)
        self.begin()
        self.append(UInt64(0))
        self.append(UInt64(0))
        self.append(UInt32(0))
        try self.end(.footer)
        try self.write(Self.magic)
        guard fflush(self.file) == 0 else { throw ToolError("cannot flush \(self.path)") }
    }

    private func begin() {
        self.record.removeAll(keepingCapacity: true)
    }

    private func end(_ opcode: Opcode) throws {
        var header: [UInt8] = [opcode.rawValue]
        header.append(contentsOf: withUnsafeBytes(of: UInt64(self.record.count).littleEndian, Array.init))
        try self.write(header)
        try self.write(self.record)
    }

    private func append<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { self.record.append(contentsOf: $0) }
    }

    private func appendString(_ text: String) {
        self.append(UInt32(text.utf8.count))
        self.record.append(contentsOf: text.utf8)
    }

    private func appendBytes(_ bytes: [UInt8]) {
        self.append(UInt32(bytes.count))
        self.record.append(contentsOf: bytes)
    }

    private func write(_ bytes: [UInt8]) throws {
        guard fwrite(bytes, 1, bytes.count, self.file) == bytes.count else {
            throw ToolError("cannot write \(self.path): \(String(cString: strerror(errno)))")
        }
    }
}
