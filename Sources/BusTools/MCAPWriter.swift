import Glibc

/// How ``MCAPWriter`` stores its chunks.
public enum MCAPCompression: Equatable, Sendable {
    /// Chunk records as they are.
    case none
    /// Each chunk one zstd frame at `level` (1 to 19; 1 is the fastest).
    case zstd(level: Int32)

    /// The chunk record's compression field.
    var name: String {
        switch self {
        case .none: ""
        case .zstd: "zstd"
        }
    }
}

/// Writes an indexed MCAP file (https://mcap.dev/spec): JSON messages with `jsonschema` schemas.
///
/// Messages go into chunks, each followed by its message indexes, each chunk stored as its
/// ``MCAPCompression`` says (zstd needs a reader with the codec: the `mcap` tools and Foxglove have
/// it, the Python `mcap` reader needs `zstandard`). ``finish()`` writes the
/// summary (schemas, channels, statistics, chunk indexes) with its offsets and the footer, so
/// Foxglove and the `mcap` tools open the file without scanning it. A chunk is closed every
/// ``chunkBytes`` uncompressed bytes, so a recorder that dies loses at most the chunk in progress.
public final class MCAPWriter {
    static let magic: [UInt8] = [0x89, 0x4d, 0x43, 0x41, 0x50, 0x30, 0x0d, 0x0a]
    /// The size at which a chunk is closed and a new one begun.
    public static let chunkBytes = 1 << 20

    enum Opcode: UInt8 {
        case header = 0x01
        case footer = 0x02
        case schema = 0x03
        case channel = 0x04
        case message = 0x05
        case chunk = 0x06
        case messageIndex = 0x07
        case chunkIndex = 0x08
        case statistics = 0x0b
        case summaryOffset = 0x0e
        case dataEnd = 0x0f
    }

    private let file: UnsafeMutablePointer<FILE>
    public let path: String
    public let compression: MCAPCompression
    /// Bytes written to the file so far: the offset of the next record.
    private var position: UInt64 = 0
    private var record = MCAPRecordBuffer()
    private var finished = false
    /// The summary's copies of every schema and channel record, in the order added.
    private var schemaRecords: [[UInt8]] = []
    private var channelRecords: [[UInt8]] = []
    private var chunkIndexes: [[UInt8]] = []
    /// The chunk being filled: its records, their message index entries per channel, its time span.
    private var chunk: [UInt8] = []
    private var chunkIndex: [UInt16: [(logTime: UInt64, offset: UInt64)]] = [:]
    private var chunkStart: UInt64 = .max
    private var chunkEnd: UInt64 = 0
    private var channelCounts: [UInt16: UInt64] = [:]
    private var startTime: UInt64 = .max
    private var endTime: UInt64 = 0
    public private(set) var messageCount = 0

    /// Creates `path` (refusing an existing file unless `overwrite`) and writes the magic and header.
    /// The corresponding C function is `fopen`.
    ///
    /// - Throws: ``ToolError`` if the file exists (without `overwrite`) or cannot be created.
    public init(
        path: String, overwrite: Bool = false, compression: MCAPCompression = .none, profile: String = "",
        library: String = "uibus bus-tap"
    ) throws {
        if case .zstd(let level) = compression, !(1...19).contains(level) {
            throw ToolError("zstd level must be 1 to 19, not \(level)")
        }
        // "x" creates exclusively: no window between checking and creating.
        guard let file = fopen(path, overwrite ? "wb" : "wbx") else {
            if errno == EEXIST { throw ToolError("\(path) exists; give --force to overwrite it") }
            throw ToolError("cannot create \(path): \(String(cString: strerror(errno)))")
        }
        self.file = file
        self.path = path
        self.compression = compression
        try self.write(Self.magic)
        self.record.begin()
        self.record.appendString(profile)
        self.record.appendString(library)
        try self.write(self.record.finish(.header))
    }

    deinit {
        try? self.finish()
    }

    /// Adds a schema record; `id` must be unique and non-zero.
    public func addSchema(id: UInt16, name: String, encoding: String = "jsonschema", data: String) throws {
        self.record.begin()
        self.record.append(id)
        self.record.appendString(name)
        self.record.appendString(encoding)
        self.record.appendBytes(Array(data.utf8))
        let bytes = self.record.finish(.schema)
        self.schemaRecords.append(bytes)
        self.chunk.append(contentsOf: bytes)
    }

    /// Adds a channel record for `topic` carrying `schemaID`'s messages.
    public func addChannel(
        id: UInt16, schemaID: UInt16, topic: String, encoding: String = "json", metadata: [(String, String)]
    ) throws {
        self.record.begin()
        self.record.append(id)
        self.record.append(schemaID)
        self.record.appendString(topic)
        self.record.appendString(encoding)
        var map = MCAPRecordBuffer()
        for (key, value) in metadata {
            map.appendString(key)
            map.appendString(value)
        }
        self.record.appendBytes(map.bytes)
        let bytes = self.record.finish(.channel)
        self.channelRecords.append(bytes)
        self.channelCounts[id] = self.channelCounts[id] ?? 0
        self.chunk.append(contentsOf: bytes)
    }

    /// Adds one message on `channelID`.
    public func addMessage(channelID: UInt16, sequence: UInt32, logTime: UInt64, publishTime: UInt64, data: String)
        throws
    {
        self.record.begin()
        self.record.append(channelID)
        self.record.append(sequence)
        self.record.append(logTime)
        self.record.append(publishTime)
        self.record.appendRaw(Array(data.utf8))
        self.chunkIndex[channelID, default: []].append((logTime, UInt64(self.chunk.count)))
        self.chunk.append(contentsOf: self.record.finish(.message))
        self.chunkStart = min(self.chunkStart, logTime)
        self.chunkEnd = max(self.chunkEnd, logTime)
        self.startTime = min(self.startTime, logTime)
        self.endTime = max(self.endTime, logTime)
        self.channelCounts[channelID, default: 0] += 1
        self.messageCount += 1
        if self.chunk.count >= Self.chunkBytes { try self.closeChunk() }
    }

    /// Writes the chunk in progress with its message indexes, and remembers its chunk index.
    private func closeChunk() throws {
        guard !self.chunk.isEmpty else { return }
        let start = self.chunkStart == .max ? 0 : self.chunkStart
        let chunkOffset = self.position
        let stored: [UInt8]
        switch self.compression {
        case .none: stored = self.chunk
        case .zstd(let level): stored = try Zstd.compress(self.chunk, level: level)
        }
        self.record.begin()
        self.record.append(start)
        self.record.append(self.chunkEnd)
        self.record.append(UInt64(self.chunk.count))
        self.record.append(UInt32(0))  // no CRC: 0 means "not computed" to readers
        self.record.appendString(self.compression.name)
        self.record.append(UInt64(stored.count))
        self.record.appendRaw(stored)
        try self.write(self.record.finish(.chunk))
        let chunkLength = self.position - chunkOffset
        let indexStart = self.position
        var indexOffsets = MCAPRecordBuffer()
        for channelID in self.chunkIndex.keys.sorted() {
            indexOffsets.append(channelID)
            indexOffsets.append(self.position)
            self.record.begin()
            self.record.append(channelID)
            var entries = MCAPRecordBuffer()
            for entry in self.chunkIndex[channelID]! {
                entries.append(entry.logTime)
                entries.append(entry.offset)
            }
            self.record.appendBytes(entries.bytes)
            try self.write(self.record.finish(.messageIndex))
        }
        self.record.begin()
        self.record.append(start)
        self.record.append(self.chunkEnd)
        self.record.append(chunkOffset)
        self.record.append(chunkLength)
        self.record.appendBytes(indexOffsets.bytes)
        self.record.append(self.position - indexStart)
        self.record.appendString(self.compression.name)
        self.record.append(UInt64(stored.count))
        self.record.append(UInt64(self.chunk.count))
        self.chunkIndexes.append(self.record.finish(.chunkIndex))
        self.chunk.removeAll(keepingCapacity: true)
        self.chunkIndex.removeAll(keepingCapacity: true)
        self.chunkStart = .max
        self.chunkEnd = 0
    }

    /// Closes the last chunk, writes data end, the summary and its offsets, the footer and magic,
    /// and closes the file; later calls do nothing.
    public func finish() throws {
        guard !self.finished else { return }
        self.finished = true
        defer { fclose(self.file) }
        try self.closeChunk()
        self.record.begin()
        self.record.append(UInt32(0))
        try self.write(self.record.finish(.dataEnd))
        let summaryStart = self.position
        var groups: [(Opcode, UInt64, UInt64)] = []
        for (opcode, records) in [
            (Opcode.schema, self.schemaRecords), (.channel, self.channelRecords), (.statistics, [self.statistics()]),
            (.chunkIndex, self.chunkIndexes),
        ] where !records.isEmpty {
            let start = self.position
            for record in records { try self.write(record) }
            groups.append((opcode, start, self.position - start))
        }
        let offsetsStart = self.position
        for (opcode, start, length) in groups {
            self.record.begin()
            self.record.append(opcode.rawValue)
            self.record.append(start)
            self.record.append(length)
            try self.write(self.record.finish(.summaryOffset))
        }
        self.record.begin()
        self.record.append(summaryStart)
        self.record.append(offsetsStart)
        self.record.append(UInt32(0))
        try self.write(self.record.finish(.footer))
        try self.write(Self.magic)
        guard fflush(self.file) == 0 else { throw ToolError("cannot flush \(self.path)") }
    }

    private func statistics() -> [UInt8] {
        var record = MCAPRecordBuffer()
        record.begin()
        record.append(UInt64(self.messageCount))
        record.append(UInt16(self.schemaRecords.count))
        record.append(UInt32(self.channelRecords.count))
        record.append(UInt32(0))  // attachments
        record.append(UInt32(0))  // metadata
        record.append(UInt32(self.chunkIndexes.count))
        record.append(self.messageCount == 0 ? 0 : self.startTime)
        record.append(self.endTime)
        var counts = MCAPRecordBuffer()
        for channelID in self.channelCounts.keys.sorted() {
            counts.append(channelID)
            counts.append(self.channelCounts[channelID]!)
        }
        record.appendBytes(counts.bytes)
        return record.finish(.statistics)
    }

    private func write(_ bytes: [UInt8]) throws {
        guard fwrite(bytes, 1, bytes.count, self.file) == bytes.count else {
            throw ToolError("cannot write \(self.path): \(String(cString: strerror(errno)))")
        }
        self.position += UInt64(bytes.count)
    }
}

/// One MCAP record being built: little-endian integers, length-prefixed strings and byte arrays.
struct MCAPRecordBuffer {
    private(set) var bytes: [UInt8] = []

    mutating func begin() {
        self.bytes.removeAll(keepingCapacity: true)
    }

    /// The record: opcode, 64-bit length, body.
    mutating func finish(_ opcode: MCAPWriter.Opcode) -> [UInt8] {
        var record: [UInt8] = [opcode.rawValue]
        record.reserveCapacity(9 + self.bytes.count)
        withUnsafeBytes(of: UInt64(self.bytes.count).littleEndian) { record.append(contentsOf: $0) }
        record.append(contentsOf: self.bytes)
        return record
    }

    mutating func append<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { self.bytes.append(contentsOf: $0) }
    }

    mutating func appendString(_ text: String) {
        self.appendBytes(Array(text.utf8))
    }

    mutating func appendBytes(_ bytes: [UInt8]) {
        self.append(UInt32(bytes.count))
        self.bytes.append(contentsOf: bytes)
    }

    mutating func appendRaw(_ bytes: [UInt8]) {
        self.bytes.append(contentsOf: bytes)
    }
}
