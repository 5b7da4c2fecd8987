import BusSchema
import BusTools
import Foundation
import Testing

@Suite struct ReplayRemapperTests {
    static func frame(_ device: String, _ frame: Int64, _ tNs: Int64) -> Value {
        .map(["device": .string(device), "frame": .int(frame), "t_ns": .int(tNs), "contacts": .array([])])
    }

    @Test func eachDevicesFramesAreRenumberedFromTheBaseWithTheirRecordedGapsAndTimes() {
        var remapper = ReplayRemapper(frameBase: 1_000, timeBaseNs: 50_000)
        let sent = [
            remapper.remap(Self.frame("d0", 7, 900), schema: "touch.frame"),
            remapper.remap(Self.frame("d1", 3, 100), schema: "touch.frame"),
            remapper.remap(Self.frame("d0", 9, 1_900), schema: "touch.frame"),
        ]
        #expect(sent.map { $0["frame"] } == [.int(1_000), .int(1_000), .int(1_002)])
        #expect(sent.map { $0["t_ns"] } == [.int(50_000), .int(50_000), .int(51_000)])
        #expect(sent.map { $0["device"] } == [.string("d0"), .string("d1"), .string("d0")])
        #expect(remapper.sentFrames == ["d0": 1_000...1_002, "d1": 1_000...1_000])
        #expect(remapper.latestTimeNs == 51_000)
    }

    @Test func otherMessagesPassThroughUnchanged() {
        var remapper = ReplayRemapper(frameBase: 1_000, timeBaseNs: 50_000)
        let gesture: Value = .map(["device": .string("d0"), "frame": .int(3), "t_ns": .int(1)])
        #expect(remapper.remap(gesture, schema: "gesture.event") == gesture)
        #expect(
            remapper.remap(.map(["device": .string("d0")]), schema: "touch.frame") == .map(["device": .string("d0")]))
    }

    @Test func aChunkedRecordingReadsBackWithItsChunksAndStatistics() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("uibus-\(UUID()).mcap").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try MCAPWriter(path: path)
        try writer.addSchema(id: 1, name: "lifecycle", data: "{}")
        try writer.addChannel(id: 1, schemaID: 1, topic: "a/", metadata: [("schema", "lifecycle")])
        for index in 0..<3 {
            try writer.addMessage(
                channelID: 1, sequence: UInt32(index), logTime: UInt64(10 + index), publishTime: 0, data: "{}")
        }
        try writer.finish()
        #expect(throws: ToolError.self) { try MCAPWriter(path: path) }
        let recording = try MCAPReader(path: path)
        #expect(recording.messages.map(\.logTime) == [10, 11, 12])
        #expect(recording.chunkCount == 1 && recording.hasStatistics)
        #expect(Set(recording.channels.values.map(\.topic)) == ["a/"])
    }
}
