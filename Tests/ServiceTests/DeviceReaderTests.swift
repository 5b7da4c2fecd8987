import BusSchema
import BusTestSupport
import Foundation
import InputCore
import Testing

/// The live evdev path of `input-source run --device`, fed through a FIFO with raw 24-byte
/// `struct input_event` records: the same non-blocking reads, decoder, guard and removal handling
/// as `/dev/input/eventN`, minus the `EVIOCGABS` axes (a FIFO has none, so `--desc` supplies them).
@Suite struct DeviceReaderTests {
    static let evemu = ChildProcess.repositoryRoot + "/Tests/data/evemu/"

    @Test func rawRecordsThroughAFIFOArePublishedAsFramesAndTheEndCancelsTheTouchLeftDown() throws {
        let pipeline = try Pipeline()
        defer { try? pipeline.stop() }
        let descPath = Self.evemu + "Atmel_maXTouch_Touchscreen.desc"
        let desc = EvemuRecording.parse(try String(contentsOfFile: descPath, encoding: .utf8)).description
        var events = EvemuRecording.parse(
            try String(
                contentsOfFile: Self.evemu + "Atmel_maXTouch_Touchscreen.1-finger-fast-taps.events", encoding: .utf8),
            description: desc
        ).events
        // One more finger lands 100 ms after the recording and is never lifted.
        let t = events.last!.time + .milliseconds(100)
        events += [
            InputEvent(time: t, type: EventCode.absType, code: EventCode.mtSlot, value: 0),
            InputEvent(time: t, type: EventCode.absType, code: EventCode.mtTrackingID, value: 77),
            InputEvent(time: t, type: EventCode.absType, code: EventCode.mtPositionX, value: 1000),
            InputEvent(time: t, type: EventCode.absType, code: EventCode.mtPositionY, value: 1000),
            InputEvent(time: t, type: EventCode.synType, code: EventCode.synReport, value: 0),
        ]
        let expected = OfflineConversion.frames(events: events, description: desc)
        #expect(expected.last?.contacts.map(\.phase) == [.cancelled])

        let fifo = pipeline.directory + "/event0"
        #expect(mkfifo(fifo, 0o600) == 0)
        let frames = try pipeline.echo("touch/d0/", count: expected.count)
        let taps = try pipeline.echo("gesture/d0/screen/tap/")
        let source = try pipeline.startSource(["--device", fifo, "--desc", descPath])
        try source.waitForLine("ready")
        #expect(source.stderr.contains("not an input device; axes from \(descPath)"))

        let writer = try #require(FileHandle(forWritingAtPath: fifo))
        // In pieces that split records, as a device's reads may.
        let bytes = events.flatMap(\.binary)
        for start in stride(from: 0, to: bytes.count, by: 1000) {
            try writer.write(contentsOf: Data(bytes[start..<min(start + 1000, bytes.count)]))
        }
        try writer.close()

        #expect(try source.wait() == 0, "\(source.stderr)")
        #expect(source.stderr.contains("device removed: read \(fifo): end of file"))
        #expect(try frames.wait() == 0)
        let received = try EchoLine.parse(frames).map(\.payload)
        #expect(received.dropLast() == (try expected.dropLast().map { try JSONReader.parse($0.value.json) })[...])
        let last = try #require(received.last)
        let contacts = last["contacts"]?.arrayValue ?? []
        #expect(contacts.map { $0["phase"] } == [.string("cancelled")])
        #expect(contacts.map { $0["id"] } == [.int(77)])

        try waitUntil("nine taps") {
            try EchoLine.parse(taps).filter { $0.payload["state"] == .string("recognized") }.count >= 9
        }
        taps.signal(SIGTERM)
        try taps.wait()
        #expect(try EchoLine.parse(taps).filter { $0.payload["state"] == .string("recognized") }.count == 9)
    }

    @Test func aPathThatCannotBeOpenedIsAPermanentConfigurationFailure() throws {
        let pipeline = try Pipeline()
        defer { try? pipeline.stop() }
        let missing = pipeline.directory + "/no-such-device"
        let result = try pipeline.runSource(["--device", missing])
        #expect(result.status == 78)
        #expect(result.stderr.contains("open \(missing)"))
    }
}
