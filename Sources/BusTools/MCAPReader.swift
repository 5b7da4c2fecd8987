import Foundation
import ServiceSupport

/// Reads the messages of an MCAP file, with the schema and channel of each.
///
/// It scans records in order (no index needed) and reads uncompressed and zstd chunks (a zstd
/// chunk's declared size is checked against ``Zstd/maximumFrameBytes`` before anything is
/// allocated); another compression or a malformed record is an error naming the byte offset.
public struct MCAPReader {
    public struct Schema: Sendable {
        public var id: UInt16
        public var name: String
        public var encoding: String
        public var data: [UInt8]
    }

    public struct Channel: Sendable {
        public var id: UInt16
        public var schemaID: UInt16
        public var topic: String
        public var encoding: String
        public var metadata: [String: String]
    }

    public struct Message: Sendable {
        public var channel: Channel
        public var sequence: UInt32
        public var logTime: UInt64
        public var publishTime: UInt64
        public var data: [UInt8]
    }

    public private(set) var schemas: [UInt16: Schema] = [:]
    public private(set) var channels: [UInt16: Channel] = [:]
    public private(set) var messages: [Message] = []
    /// How many chunks the data section holds (0 for an unchunked file).
    public private(set) var chunkCount = 0
    /// Whether the file has a summary with statistics (an indexed file).
    public private(set) var hasStatistics = false

    /// Reads every message of the file at `path`.
    ///
    /// - Throws: ``ToolError`` naming the file and the offset of the first problem.
    public init(path: String) throws {
        let bytes: [UInt8]
        do {
            // Read whole: bounded well above any recording the demo makes.
            bytes = try TextFile.bytes(path, maxBytes: 1 << 30)
        } catch {
            throw ToolError("cannot read \(path) (\(error))")
        }
        guard bytes.count >= 16, Array(bytes.prefix(8)) == MCAPWriter.magic else {
            throw ToolError("\(path) is not an MCAP file (bad magic)")
        }
        do {
            try self.readRecords(bytes, from: 8, to: bytes.count)
        } catch let error as Problem {
            throw ToolError("\(path): \(error.message) at byte \(error.offset)")
        }
    }

    private struct Problem: Error {
        var message: String
        var offset: Int
    }

    private mutating func readRecords(_ bytes: [UInt8], from start: Int, to end: Int) throws {
        var offset = start
        while offset < end {
            // The closing magic (or trailing bytes shorter than a record header) ends the data.
            if end - offset < 9 { return }
            let opcode = bytes[offset]
            let length = Int(try Self.integer(UInt64.self, bytes, offset + 1, end))
            let body = offset + 9
            guard length >= 0, length <= end - body else {
                throw Problem(message: "record 0x\(String(opcode, radix: 16)) runs past the end", offset: offset)
            }
            var cursor = Cursor(bytes: bytes, offset: body, end: body + length)
            switch MCAPWriter.Opcode(rawValue: opcode) {
            case .schema:
                // The summary repeats every schema and channel record; the first copy is the one in use.
                let schema = Schema(
                    id: try cursor.integer(UInt16.self), name: try cursor.string(), encoding: try cursor.string(),
                    data: try cursor.bytes32())
                self.schemas[schema.id] = schema
            case .channel:
                let id = try cursor.integer(UInt16.self)
                let schemaID = try cursor.integer(UInt16.self)
                let topic = try cursor.string()
                let encoding = try cursor.string()
                var metadata: [String: String] = [:]
                var map = Cursor(bytes: bytes, offset: cursor.offset + 4, end: cursor.offset + 4)
                map.end = map.offset + Int(try cursor.integer(UInt32.self))
                guard map.end <= cursor.end else { throw Problem(message: "channel metadata too long", offset: offset) }
                while map.offset < map.end { metadata[try map.string()] = try map.string() }
                self.channels[id] = Channel(
                    id: id, schemaID: schemaID, topic: topic, encoding: encoding, metadata: metadata)
            case .message:
                let channelID = try cursor.integer(UInt16.self)
                guard let channel = self.channels[channelID] else {
                    throw Problem(message: "message on unknown channel \(channelID)", offset: offset)
                }
                let sequence = try cursor.integer(UInt32.self)
                let logTime = try cursor.integer(UInt64.self)
                let publishTime = try cursor.integer(UInt64.self)
                self.messages.append(
                    Message(
                        channel: channel, sequence: sequence, logTime: logTime, publishTime: publishTime,
                        data: Array(bytes[cursor.offset..<cursor.end])))
            case .chunk:
                _ = try cursor.integer(UInt64.self)  // message start time
                _ = try cursor.integer(UInt64.self)  // message end time
                let uncompressedSize = try cursor.integer(UInt64.self)
                _ = try cursor.integer(UInt32.self)  // uncompressed CRC
                let compression = try cursor.string()
                let size = try cursor.integer(UInt64.self)
                guard size <= UInt64(cursor.end - cursor.offset) else {
                    throw Problem(message: "chunk records run past the chunk", offset: offset)
                }
                let records = cursor.offset..<(cursor.offset + Int(size))
                switch compression {
                case "":
                    try self.readRecords(bytes, from: records.lowerBound, to: records.upperBound)
                case "zstd":
                    let plain: [UInt8]
                    do {
                        plain = try Zstd.decompress(bytes[records], expectedSize: uncompressedSize)
                    } catch let error as ToolError {
                        throw Problem(message: "zstd chunk: \(error.description)", offset: offset)
                    }
                    // Offsets of problems inside are the chunk's own, after the chunk's byte offset.
                    do {
                        try self.readRecords(plain, from: 0, to: plain.count)
                    } catch let inner as Problem {
                        throw Problem(
                            message: "\(inner.message) (at byte \(inner.offset) of the chunk)", offset: offset)
                    }
                default:
                    throw Problem(message: "chunk compressed with \(compression) is not supported", offset: offset)
                }
                self.chunkCount += 1
            case .statistics:
                self.hasStatistics = true
            case .footer:
                return
            default:
                break  // Header, data end, indexes, statistics, attachments: nothing to replay.
            }
            offset = body + length
        }
    }

    private static func integer<T: FixedWidthInteger>(_: T.Type, _ bytes: [UInt8], _ offset: Int, _ end: Int) throws
        -> T
    {
        let size = MemoryLayout<T>.size
        guard offset + size <= end else { throw Problem(message: "truncated record", offset: offset) }
        var value: T = 0
        for index in 0..<size { value |= T(bytes[offset + index]) << (8 * index) }
        return value
    }

    private struct Cursor {
        var bytes: [UInt8]
        var offset: Int
        var end: Int

        mutating func integer<T: FixedWidthInteger>(_: T.Type) throws -> T {
            let value = try MCAPReader.integer(T.self, self.bytes, self.offset, self.end)
            self.offset += MemoryLayout<T>.size
            return value
        }

        mutating func bytes32() throws -> [UInt8] {
            let count = Int(try self.integer(UInt32.self))
            guard count <= self.end - self.offset else {
                throw Problem(message: "truncated field", offset: self.offset)
            }
            defer { self.offset += count }
            return Array(self.bytes[self.offset..<(self.offset + count)])
        }

        mutating func string() throws -> String {
            String(decoding: try self.bytes32(), as: UTF8.self)
        }
    }
}
