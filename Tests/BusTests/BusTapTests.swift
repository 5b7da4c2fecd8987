import Bus
import BusSchema
import BusTestSupport
import BusTools
import CZeroMQ
import Foundation
import Testing

@Suite struct BusTapTests {
    static let frameJSON = #"{"device":"d0","frame":1,"t_ns":5,"contacts":[{"id":0,"phase":"began","x":1.5,"y":2}]}"#

    @Test func echoShowsMessagesPublishedByAnotherProcess() throws {
        let proxy = try ProxyProcess()
        defer { try? proxy.stop() }
        let echo = try ChildProcess("bus-tap", ["echo", "touch/", "--count", "2", "--json"], bus: proxy.busFile)
        let (status, _, stderr) = try ChildProcess.run(
            "bus-tap", ["pub", "touch/d0/", "--schema", "touch.frame", Self.frameJSON, "--count", "2"],
            bus: proxy.busFile)
        #expect(status == 0, "\(stderr)")
        #expect(try echo.wait() == 0)
        let lines = try echo.lines.map { try JSONReader.parse($0) }
        #expect(lines.count == 2)
        #expect(lines.map { $0["seq"] } == [.int(1), .int(2)])
        #expect(lines[0]["topic"] == .string("touch/d0/"))
        #expect(lines[0]["schema"] == .string("touch.frame"))
        #expect(lines[0]["pub"] == .string("bus-tap"))
        #expect(lines[0]["payload"] == (try JSONReader.parse(Self.frameJSON)))
        for key in ["major", "minor", "epoch", "mono", "wall"] { #expect(lines[0][key]?.intValue != nil, "\(key)") }
    }

    @Test func hzCountsDeliberatelyDroppedMessagesSoReceivedPlusLostIsSent() throws {
        let proxy = try ProxyProcess()
        defer { try? proxy.stop() }
        let sent = 1000
        let hz = try ChildProcess("bus-tap", ["hz", "touch/", "--count", "\(sent)", "--json"], bus: proxy.busFile)
        // Stamp every message but send only nine in ten: exactly 100 are lost on purpose.
        let context = try ZMQContext()
        let socket = try ZMQSocket(context, .xpub)
        try socket.connect(proxy.config.publish)
        var frames = Frames()
        // The proxy's own subscription (`ui`, for its state cache) may come first: wait for hz's.
        try waitUntil("hz to subscribe") {
            try socket.receive(into: &frames, dontWait: true) && frames[0] == [1] + Array("touch/".utf8)
        }
        var stamper = EnvelopeStamper(publisher: "dropper")
        let topic = try Topic.touch("d0")
        let payload = PublisherSubscriberTests.frame(1).messagePack
        for seq in 1...sent {
            _ = stamper.stamp(TouchFrame.schema, on: topic)
            if seq % 10 == 0 && seq != sent { continue }
            try payload.withUnsafeBytes { payload in
                try stamper.header.withUnsafeBytes {
                    try socket.sendMessage(topic: topic, header: $0, payload: payload)
                }
            }
        }
        #expect(try hz.wait() == 0, "\(hz.stderr)")
        let summary = try JSONReader.parse(try #require(hz.lines.last))
        #expect(summary["received"] == .int(901))
        #expect(summary["lost"] == .int(99))
        #expect(summary["rate_per_s"]?.doubleValue ?? 0 > 0)
        #expect(summary["latency_p99_us"]?.doubleValue ?? -1 >= summary["latency_p50_us"]?.doubleValue ?? 0)
    }

    @Test func pubRefusesAPayloadThatBreaksTheSchemaAndSaysWhere() throws {
        let (status, _, stderr) = try ChildProcess.run(
            "bus-tap", ["pub", "touch/d0/", "--schema", "touch.frame", #"{"device":"d0","frame":"one"}"#],
            bus: ChildProcess.repositoryRoot + "/deploy/bus.json")
        #expect(status == 1)
        #expect(stderr.contains("/frame: expected integer, found string"))
        #expect(stderr.contains("missing required field 'contacts'"))
    }

    @Test func pubRefusesAnUnknownSchemaAndBadJSON() throws {
        let bus = ChildProcess.repositoryRoot + "/deploy/bus.json"
        let unknown = try ChildProcess.run("bus-tap", ["pub", "x/", "--schema", "nope", "{}"], bus: bus)
        #expect(unknown.0 == 1)
        #expect(unknown.2.contains("no schema nope v1"))
        let malformed = try ChildProcess.run(
            "bus-tap", ["pub", "x/", "--schema", "health", "{oops"], bus: bus)
        #expect(malformed.0 == 64)
        #expect(malformed.2.contains("the payload is not valid JSON"))
        let badTopic = try ChildProcess.run("bus-tap", ["pub", "x", "--schema", "health", "{}"], bus: bus)
        #expect(badTopic.0 == 64)
        #expect(badTopic.2.contains("must end with '/'"))
    }

    @Test func recordThenReplayRepublishesTheSamePayloads() throws {
        let proxy = try ProxyProcess()
        defer { try? proxy.stop() }
        let file = proxy.directory + "/session.mcap"
        let record = try ChildProcess("bus-tap", ["record", file, "touch/", "--count", "3"], bus: proxy.busFile)
        for frame in 1...3 {
            let json = Self.frameJSON.replacingOccurrences(of: #""frame":1"#, with: #""frame":\#(frame)"#)
            let (status, _, stderr) = try ChildProcess.run(
                "bus-tap", ["pub", "touch/d0/", "--schema", "touch.frame", json], bus: proxy.busFile)
            #expect(status == 0, "\(stderr)")
        }
        #expect(try record.wait() == 0, "\(record.stderr)")
        let recording = try MCAPReader(path: file)
        #expect(recording.messages.count == 3)
        #expect(recording.schemas.values.map(\.encoding) == ["jsonschema"])
        #expect(recording.messages.allSatisfy { $0.channel.encoding == "json" && $0.channel.topic == "touch/d0/" })

        let echo = try ChildProcess("bus-tap", ["echo", "touch/", "--count", "3", "--json"], bus: proxy.busFile)
        let (status, _, stderr) = try ChildProcess.run("bus-tap", ["replay", file, "--speed", "0"], bus: proxy.busFile)
        #expect(status == 0, "\(stderr)")
        #expect(try echo.wait() == 0)
        // Replayed as new frames of the device: renumbered upwards with the recorded gaps, contacts unchanged.
        let payloads = try echo.lines.map { try #require(try JSONReader.parse($0)["payload"]) }
        let frames = payloads.compactMap { $0["frame"]?.intValue }
        #expect(frames.count == 3 && frames[1] == frames[0] + 1 && frames[2] == frames[0] + 2 && frames[0] > 3)
        #expect(payloads.allSatisfy { $0["contacts"] == (try? JSONReader.parse(Self.frameJSON))?["contacts"] })
    }

    @Test func endpointsPrintsTheResolvedEndpointsAsJSON() throws {
        let proxy = try ProxyProcess()
        defer { try? proxy.stop() }
        let (status, stdout, _) = try ChildProcess.run("bus-tap", ["endpoints"], bus: proxy.busFile)
        #expect(status == 0)
        let document = try JSONReader.parse(stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(document["publish"] == .string("ipc://\(proxy.directory)/run/in"))
        #expect(document["subscribe"] == .string("ipc://\(proxy.directory)/run/out"))
    }

    @Test func listShowsTopicsWithTheirSchemaAndPublisher() throws {
        let proxy = try ProxyProcess()
        defer { try? proxy.stop() }
        let (status, stdout, _) = try ChildProcess.run(
            "bus-tap", ["list", "--duration", "1.5", "--json"], bus: proxy.busFile)
        #expect(status == 0)
        let rows = try stdout.split(separator: "\n").map { try JSONReader.parse(String($0)) }
        let health = try #require(rows.first { $0["topic"] == .string("sys/health/bus-proxy/") })
        #expect(health["schema"] == .string("health v1.2"))
        #expect(health["publishers"] == .array([.string("bus-proxy")]))
    }

    @Test func unknownVerbsAndOptionsAreUsageErrors() throws {
        let bus = ChildProcess.repositoryRoot + "/deploy/bus.json"
        let verb = try ChildProcess.run("bus-tap", ["frobnicate"], bus: bus)
        #expect(verb.0 == 64 && verb.2.contains("unknown verb 'frobnicate'"))
        let option = try ChildProcess.run("bus-tap", ["echo", "--colour", "red"], bus: bus)
        #expect(option.0 == 64 && option.2.contains("unknown option --colour"))
        let typo = try ChildProcess.run("bus-tap", ["echo", "touch/", "--jsno"], bus: bus)
        #expect(typo.0 == 64 && typo.2.contains("unknown option --jsno (did you mean --json?)"), "\(typo.2)")
        let config = try ChildProcess.run("bus-tap", ["endpoints"], bus: "/nonexistent/bus.json")
        #expect(config.0 == 78 && config.2.contains("/nonexistent/bus.json"))
    }
}
