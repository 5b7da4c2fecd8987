import Bus
import BusSchema
import BusTestSupport
import Foundation
import Testing

/// Issue 20 point 7: supervision contains a fault to the service that has it.
@Suite struct FaultContainmentTests {
    static let memoStack = """
        {"name": "bus-proxy", "command": ["bus-proxy"]},
        {"name": "memo-store", "command": ["memo-store", "--db", "{dir}/db/memo.sqlite"], "directories": ["{dir}/db"]},
        {"name": "gesture-recognizer", "command": ["gesture-recognizer"]}
        """

    @Test func aPausedProxyGetsNoOtherServiceKilled() throws {
        let run = try SupervisorRun(services: SupervisorProcessTests.pipeline, policy: #"{"watchdog_ms": 3000}"#)
        try run.process.waitForLine("ready", seconds: 60)
        let others = ["gesture-recognizer", "input-source"]
        let before = try others.map { try run.pid($0) }
        let proxy = try run.pid("bus-proxy")
        func healthSeq(_ name: String) throws -> Int64 { try run.service(name)["health"]?["seq"]?.intValue ?? 0 }
        let seqs = try others.map(healthSeq)
        // A 4 s pause: longer than the watchdog, so bus health from every service stops that long.
        kill(proxy, SIGSTOP)
        let paused = Date()
        try waitUntil("4 s of pause", seconds: 10) { Date().timeIntervalSince(paused) >= 4 }
        kill(proxy, SIGCONT)
        try waitUntil("the proxy running and the others' health back on the bus", seconds: 30) {
            guard try run.service("bus-proxy")["state"] == .string("running") else { return false }
            return try zip(others, seqs).allSatisfy { try healthSeq($0) > $1 + 5 }
        }
        #expect(try others.map { try run.pid($0) } == before, "\(run.process.stdout)")
        for name in others {
            #expect(try run.service(name)["restarts"] == .int(0), "\(name): \(run.process.stdout)")
            #expect(!run.process.stdout.contains("from \(name); killing it"))
        }
        #expect(try run.down() == 0)
    }

    @Test func spoofedHealthKeepsNoStoppedServiceRunning() throws {
        let run = try SupervisorRun(services: Self.memoStack, policy: #"{"watchdog_ms": 2500}"#)
        try run.process.waitForLine("ready", seconds: 60)
        let store = try run.pid("memo-store")
        let config = try BusConfig.load(run.busFile)
        let publisher = try Publisher(context: try ZMQContext(), endpoint: config.publish, name: "memo-store")
        defer { publisher.socket.close() }
        var invented = HealthCounters()
        invented.sent = 424_242
        // The supervisor's health subscription has reached this publisher: what it sends now is heard.
        #expect(try publisher.waitForSubscriber(matching: try Topic.health("memo-store"), timeoutMs: 30_000))
        kill(store, SIGSTOP)
        defer { kill(store, SIGCONT) }
        // The stopped store's pid, its name, invented counters: sent as often as the real ones would be.
        var seq: UInt64 = 0
        func spoof() throws {
            seq += 1
            let report = Health {
                $0.service = "memo-store"
                $0.state = .ready
                $0.seq = seq
                $0.uptimeMs = seq
                $0.pid = Int(store)
                $0.epoch = publisher.epoch
                $0.counters = invented
            }
            try publisher.publish(report, on: try Topic.health("memo-store"))
        }
        try waitUntil("the stopped memo store killed and restarted despite the spoofed health", seconds: 30) {
            try spoof()
            let now = try run.service("memo-store")
            return now["state"] == .string("running") && now["pid"]?.intValue != Int64(store)
        }
        #expect(run.process.stdout.contains("watchdog: no heartbeat for 2500 ms from memo-store"))
        // Every spoofed report is counted as ignored, the ones that raced the restart included.
        var now = try run.service("memo-store")
        try waitUntil("the spoofed health counted as ignored", seconds: 30) {
            try spoof()
            now = try run.service("memo-store")
            return (now["health_ignored"]?.intValue ?? 0) >= 1
        }
        #expect(now["health"]?["counters"]?["sent"] != .int(424_242), "invented counters shown: \(now)")
        #expect(try run.down() == 0)
    }

    @Test func aCrashLoopingServiceIsMarkedFailed_whileTheMemoStoreAndProxyKeepRunning() throws {
        // The "NaN drag cascade": six crashes of one service used to stop the whole stack.
        let run = try SupervisorRun(
            services: Self.memoStack + #"""
                ,{"name": "crasher", "command": ["/bin/sh", "-c", "echo ready; exit 3"], "watchdog": false}
                """#,
            policy: #"{"initial_backoff_ms": 5}"#)
        try waitUntil("the crasher marked failed", seconds: 60) {
            run.state("crasher") == "failed"
        }
        let crasher = try run.service("crasher")
        #expect(crasher["reason"] == .string("restart intensity exceeded: 6 restarts within 60 s (last: exit code 3)"))
        #expect(run.process.isRunning, "the supervisor gave up: \(run.process.stderr)")
        for name in ["bus-proxy", "memo-store", "gesture-recognizer"] {
            let service = try run.service(name)
            #expect(service["state"] == .string("running"), "\(name): \(service)")
            #expect(service["restarts"] == .int(0), "\(name): \(service)")
        }
        let (status, text, _) = try run.verb(["status"])
        #expect(status == 0)
        #expect(
            text.contains("why: restart intensity exceeded: 6 restarts within 60 s (last: exit code 3)"),
            "status cut a state short:\n\(text)")
        #expect(try run.down() == 0)
        #expect(try run.process.wait() == 0)
    }
}
