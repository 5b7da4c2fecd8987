import BusTools
import Foundation
import Testing

@Suite struct MCAPCompressionTests {
    static func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("uibus-\(UUID()).mcap").path
    }

    /// An MCAP file holding one chunk record with the given fields, then the closing magic.
    static func fileWithChunk(uncompressedSize: UInt64, compression: String, data: [UInt8]) -> [UInt8] {
        var body: [UInt8] = []
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { body += $0 } }
        append(UInt64(0))
        append(UInt64(0))
        append(uncompressedSize)
        append(UInt32(0))
        append(UInt32(compression.utf8.count))
        body += Array(compression.utf8)
        append(UInt64(data.count))
        body += data
        let magic: [UInt8] = [0x89, 0x4d, 0x43, 0x41, 0x50, 0x30, 0x0d, 0x0a]
        var file = magic + [0x06]
        withUnsafeBytes(of: UInt64(body.count).littleEndian) { file += $0 }
        return file + body + magic
    }

    /// The error reading `bytes` as an MCAP file gives, or nil if it reads.
    static func readError(_ bytes: [UInt8]) throws -> String? {
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        do {
            _ = try MCAPReader(path: path)
            return nil
        } catch let error as ToolError {
            return error.description
        }
    }

    @Test func aZstdRecordingReadsBackTheMessagesItWasGivenInFewerBytes() throws {
        var sizes: [Int] = []
        for compression in [MCAPCompression.none, .zstd(level: 1)] {
            let path = Self.temporaryPath()
            defer { try? FileManager.default.removeItem(atPath: path) }
            let writer = try MCAPWriter(path: path, compression: compression)
            try writer.addSchema(id: 1, name: "touch.frame", data: "{}")
            try writer.addChannel(id: 1, schemaID: 1, topic: "touch/d0/", metadata: [])
            for index in 0..<2_000 {
                try writer.addMessage(
                    channelID: 1, sequence: UInt32(index), logTime: UInt64(index), publishTime: 0,
                    data: #"{"device":"d0","frame":\#(index),"contacts":[{"id":1,"x":\#(index % 300),"y":40}]}"#)
            }
            try writer.finish()
            let recording = try MCAPReader(path: path)
            #expect(recording.messages.map(\.logTime) == (0..<2_000).map(UInt64.init))
            #expect(String(decoding: recording.messages[7].data, as: UTF8.self).contains(#""frame":7,"#))
            #expect(recording.chunkCount >= 1 && recording.hasStatistics)
            sizes.append(try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int)
        }
        #expect(sizes[1] < sizes[0] / 4, "zstd \(sizes[1]) bytes vs none \(sizes[0])")
    }

    @Test func aZstdChunkDeclaringAHugeSizeIsRefusedBeforeAllocating() throws {
        let error = try Self.readError(
            Self.fileWithChunk(uncompressedSize: 1 << 62, compression: "zstd", data: [1, 2]))
        #expect(error?.contains("declared uncompressed size 4611686018427387904 is over the") == true, "\(error ?? "")")
    }

    @Test func aZstdChunkOfCorruptDataIsAClearError() throws {
        let garbage = Self.fileWithChunk(
            uncompressedSize: 100, compression: "zstd", data: Array(repeating: 0xAB, count: 64))
        #expect(try Self.readError(garbage)?.contains("zstd chunk: zstd frame does not declare") == true)
        // A real frame (from a real recording) whose header is right and whose first block is not.
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try MCAPWriter(path: path, compression: .zstd(level: 1))
        try writer.addSchema(id: 1, name: "s", data: String(repeating: "{\"type\":\"object\"}", count: 200))
        try writer.finish()
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let chunk = try #require(bytes.firstIndex(of: 0x06))
        // Opcode, length, start, end, size, CRC, "zstd", compressed size: then the frame. Its header is
        // magic, descriptor and a 2-byte content size (single segment); all-ones makes the block header's
        // type the reserved one.
        let frameStart = chunk + 9 + 8 + 8 + 8 + 4 + 4 + 4 + 8
        #expect(Array(bytes[frameStart..<(frameStart + 4)]) == [0x28, 0xB5, 0x2F, 0xFD])
        for index in (frameStart + 7)..<(frameStart + 10) { bytes[index] = 0xFF }
        let error = try Self.readError(bytes)
        #expect(error?.contains("zstd chunk: zstd decompression failed") == true, "\(error ?? "")")
    }

    @Test func anUnknownCompressionIsNamedInTheError() throws {
        let error = try Self.readError(Self.fileWithChunk(uncompressedSize: 2, compression: "lz4", data: [1, 2]))
        #expect(error?.contains("chunk compressed with lz4 is not supported") == true)
    }
}
