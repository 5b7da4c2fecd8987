import Bus
import BusSchema
import BusTestSupport
import Foundation
import Testing

/// Stopping, bad input and the health each service reports about it.
@Suite struct ServiceLifecycleTests {
    /// The health reports in an echo of `sys/health/<service>/`.
    static func healthReports(_ echo: ChildProcess) throws -> [Value] {
        try EchoLine.parse(echo).map(\.payload)
    }

    @Test func sigtermStopsTheRecognizerWithExitZeroAndAStoppingHealthReport() throws {
        let pipeline = try Pipeline()
        defer { try? pipeline.stop() }
        let health = try pipeline.echo("sys/health/gesture-recognizer/")
        pipeline.recognizer.signal(SIGTERM)
        #expect(try pipeline.recognizer.wait() == 0, "\(pipeline.recognizer.stderr)")
        try waitUntil("a stopping report") {
            try Self.healthReports(health).contains { $0["state"] == .string("stopping") }
        }
        health.signal(SIGTERM)
        try health.wait()
    }

    @Test func sigtermStopsAnEndlessInputSourceWithExitZeroAndAStoppingHealthReport() throws {
        let pipeline = try Pipeline()
        defer { try? pipeline.stop() }
        let health = try pipeline.echo("sys/health/input-source/")
        let source = try pipeline.startSource(["--scenario", "pan", "--loop"])
        try source.waitForLine("ready")
        let frames = try pipeline.echo("touch/d0/", count: 3)
        #expect(try frames.wait() == 0)
        source.signal(SIGTERM)
        #expect(try source.wait() == 0, "\(source.stderr)")
        try waitUntil("a stopping report") {
            try Self.healthReports(health).contains { $0["state"] == .string("stopping") }
        }
        health.signal(SIGTERM)
        try health.wait()
    }

    @Test func aGarbageTouchFrameIsCountedInTheRecognizersHealthAndTheServiceKeepsRunning() throws {
        let pipeline = try Pipeline()
        defer { try? pipeline.stop() }
        let health = try pipeline.echo("sys/health/gesture-recognizer/")
        let context = try ZMQContext()
        let publisher = try Publisher(context: context, endpoint: pipeline.proxy.config.publish, name: "garbage")
        defer { publisher.socket.close() }
        let topic = try Topic.touch("d0")
        #expect(try publisher.waitForSubscriber(matching: topic, timeoutMs: 10_000))
        // 0xc1 is never valid MessagePack; the second payload is a map without the required fields.
        try publisher.publish(payload: [0xc1], schema: TouchFrame.schema, on: topic)
        try publisher.publish(payload: [0x81, 0xa1, 0x78, 0x01], schema: TouchFrame.schema, on: topic)
        try waitUntil("bad_payload counted twice", seconds: 15) {
            try Self.healthReports(health).contains { $0["reasons"]?["bad_payload"] == .int(2) }
        }
        #expect(pipeline.recognizer.isRunning)
        #expect(pipeline.recognizer.stderr.contains("bad_payload"))
        let report = try #require(try Self.healthReports(health).last)
        #expect(report["state"] == .string("ready"))
        #expect(report["counters"]?["rejected"]?.intValue ?? 0 >= 2)

        // And it still recognizes what comes next.
        let taps = try pipeline.echo("gesture/d0/screen/tap/", count: 1)
        let source = try pipeline.runSource(["--scenario", "tap"])
        #expect(source.status == 0, "\(source.stderr)")
        #expect(try taps.wait() == 0)
        #expect(try EchoLine.parse(taps).first?.payload["state"] == .string("recognized"))
        health.signal(SIGTERM)
        try health.wait()
    }
}
