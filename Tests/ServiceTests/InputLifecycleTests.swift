import Bus
import BusSchema
import BusTestSupport
import Foundation
import InputCore
import Testing

/// `input-source` listens on `sys/lifecycle/`: when the app resigns active, the touches down are
/// cancelled (UIKit's `touchesCancelled`); touches begun while inactive never reach the recognizers.
@Suite struct InputLifecycleTests {
    /// A single-touch device's records (`BTN_TOUCH`, `ABS_X`, `ABS_Y`, `SYN_REPORT`).
    static func touch(_ ms: Int64, down: Bool, x: Int32 = 100, y: Int32 = 100) -> [UInt8] {
        let t = SourceInstant(nanoseconds: ms * 1_000_000)
        return [
            InputEvent(time: t, type: EventCode.keyType, code: EventCode.buttonTouch, value: down ? 1 : 0),
            InputEvent(time: t, type: EventCode.absType, code: EventCode.absX, value: x),
            InputEvent(time: t, type: EventCode.absType, code: EventCode.absY, value: y),
            InputEvent(time: t, type: EventCode.synType, code: EventCode.synReport, value: 0),
        ].flatMap(\.binary)
    }

    static func lifecycle(_ event: Lifecycle.Event, bus: String) throws {
        let json = #"{"service":"app","event":"\#(event.rawValue)","epoch":1,"pid":1}"#
        let (status, _, stderr) = try ChildProcess.run(
            "bus-tap", ["pub", "sys/lifecycle/app/", "--schema", "lifecycle", json], bus: bus)
        #expect(status == 0, "\(stderr)")
    }

    @Test func resigningActiveCancelsTheTouchDownAndTouchesBegunWhileInactiveAreNotPublished() throws {
        let pipeline = try Pipeline()
        defer { try? pipeline.stop() }
        let fifo = pipeline.directory + "/event0"
        #expect(mkfifo(fifo, 0o600) == 0)
        let frames = try pipeline.echo("touch/d0/")
        let health = try pipeline.echo("sys/health/input-source/")
        let source = try pipeline.startSource(["--device", fifo, "--name", "d0"])
        try source.waitForLine("ready")
        let writer = try #require(FileHandle(forWritingAtPath: fifo))
        func received() throws -> [Value] { try EchoLine.parse(frames).map(\.payload) }

        try writer.write(contentsOf: Data(Self.touch(0, down: true)))
        try waitUntil("the touch began") { try received().count == 1 }
        try Self.lifecycle(.willResignActive, bus: pipeline.busFile)
        try waitUntil("the touch cancelled") { try received().count == 2 }
        // While inactive: the held touch moves and lifts, another one taps; nothing is published.
        try writer.write(
            contentsOf: Data(
                Self.touch(10, down: true, x: 150) + Self.touch(20, down: false) + Self.touch(30, down: true)
                    + Self.touch(40, down: false)))
        try Self.lifecycle(.didBecomeActive, bus: pipeline.busFile)
        let sent = Clock.monotonicNs()
        try waitUntil("active again, in health", seconds: 30) {
            try EchoLine.parse(health).contains { $0.mono > sent && $0.payload["extra"]?["app_active"] == .bool(true) }
        }
        try writer.write(contentsOf: Data(Self.touch(50, down: true, x: 300) + Self.touch(60, down: false, x: 300)))
        try writer.close()
        #expect(try source.wait() == 0, "\(source.stderr)")
        try waitUntil("every frame") { try received().count == 4 }

        let all = try received()
        let contacts = all.map { $0["contacts"]?.arrayValue?.first ?? .null }
        #expect(contacts.map { $0["phase"] } == ["began", "cancelled", "began", "ended"].map { Value.string($0) })
        // One contact per touch: the touch begun while inactive used id 1 and was never seen.
        #expect(contacts.map { $0["id"] } == [0, 0, 2, 2].map { Value.int($0) })
        #expect(all.map { $0["frame"] } == [1, 2, 3, 4].map { Value.int($0) })
        try waitUntil("the stopping report") {
            try EchoLine.parse(health).contains { $0.payload["state"] == .string("stopping") }
        }
        let last = try #require(try EchoLine.parse(health).last { $0.payload["state"] == .string("stopping") })
        #expect(last.payload["extra"]?["resign_cancellation_frames"] == .int(1))
        #expect((last.payload["extra"]?["lifecycle_received"]?.intValue ?? 0) >= 2)
        health.signal(SIGTERM)
        try health.wait()
        frames.signal(SIGTERM)
        try frames.wait()
    }
}
