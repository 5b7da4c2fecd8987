import Bus
import BusSchema
import CZeroMQ
import Foundation
import ServiceSupport

/// `bus-bench codec --iterations N` and `bus-bench hop --size S --count N --endpoint E`:
/// the codec micro-benchmark and the one-hop peer of `raw_hop.c`. Prints JSON lines.
@main
enum BusBenchmark {
    static let usage = """
        usage: bus-bench codec [--iterations N] [--part frame|envelope|both]
               bus-bench hop [--size B] [--count N] [--endpoint E]
               bus-bench stall [--endpoint E] [--health E] [--budget B]
        """
    static let commandLine = CommandLineSpec(verbs: [
        "codec": [
            .value("iterations", "N", "encode + decode rounds (default 3000000)"),
            .value("part", "frame|envelope|both", "what to run (default both)"),
        ],
        "hop": [
            .value("size", "B", "payload bytes (default 64)"), .value("count", "N", "messages (default 1000000)"),
            .value("endpoint", "E", "the endpoint (default ipc:///tmp/uibus-bench-hop)"),
        ],
        "stall": [
            .value("endpoint", "E", "where it binds its subscriber (default ipc:///tmp/uibus-bench-stall)"),
            .value("health", "E", "where it binds its health publisher (default ipc:///tmp/uibus-bench-stall-health)"),
            .value("budget", "B", "the subscriber's receive budget in bytes"),
        ],
    ])

    static func main() {
        Tool.main("bus-bench", usage: Self.usage) {
            var options = try Self.commandLine.parse(Array(CommandLine.arguments.dropFirst()))
            switch options.verb {
            case "codec":
                let iterations = try options.int("iterations", in: 1...Int.max, default: 3_000_000)
                let part = options.string("part") ?? "both"
                guard ["frame", "envelope", "both"].contains(part) else {
                    throw UsageError("--part takes frame, envelope or both, not '\(part)'")
                }
                try options.finish(maximumPositionals: 1)
                Self.codec(iterations: iterations, part: part)
            case "stall":
                let endpoint = options.string("endpoint") ?? "ipc:///tmp/uibus-bench-stall"
                let health = options.string("health") ?? "ipc:///tmp/uibus-bench-stall-health"
                let budget = try options.int(
                    "budget", in: 1...Int.max, default: Subscriber.defaultReceiveBudgetBytes)
                try options.finish(maximumPositionals: 1)
                try Self.stall(endpoint: endpoint, health: health, budget: budget)
            default:
                let size = try options.int("size", in: 1...(64 << 20), default: 64)
                let count = try options.int("count", in: 1...Int.max, default: 1_000_000)
                let endpoint = options.string("endpoint") ?? "ipc:///tmp/uibus-bench-hop"
                try options.finish(maximumPositionals: 1)
                try Self.hop(size: size, count: count, endpoint: endpoint)
            }
        }
    }

    /// Encode + decode of a two-contact touch frame (payload) and its envelope, on one core.
    /// - Parameter part: `frame`, `envelope` or `both` (the others run 0 iterations), so an
    ///   instruction counter such as callgrind can look at one part alone.
    static func codec(iterations: Int, part: String) {
        var frame = TouchFrame {
            $0.device = "d0"
            $0.frame = 1
            $0.tNs = 1_000_000
            $0.contacts = [
                TouchContact {
                    $0.id = 0
                    $0.phase = .moved
                    $0.x = 120.5
                    $0.y = 340.25
                    $0.pressure = 0.5
                },
                TouchContact {
                    $0.id = 1
                    $0.phase = .moved
                    $0.x = 200
                    $0.y = 300
                    $0.pressure = 0.7
                },
            ]
        }
        var writer = MessagePackWriter(capacity: 256)
        var checksum = 0.0
        // Decoded in place, as a subscriber does frame after frame (no allocation once warm).
        var decoded = frame
        let frameIterations = part == "envelope" ? 0 : iterations
        let envelopeIterations = part == "frame" ? 0 : iterations
        let start = Clock.monotonicNs()
        for index in 0..<frameIterations {
            frame.frame = UInt64(index)
            writer.reset()
            frame.encode(to: &writer)
            writer.withUnsafeBytes { raw in
                var reader = MessagePackReader(raw)
                if (try? decoded.decode(from: &reader)) != nil { checksum += decoded.contacts[1].x }
            }
        }
        let frameSeconds = Double(Clock.monotonicNs() - start) / 1e9
        var envelope = Envelope(
            schema: TouchFrame.schema, publisher: "input-source", epoch: 123_456_789, seq: 1, mono: 1, wall: 2)
        let envelopeStart = Clock.monotonicNs()
        for index in 0..<envelopeIterations {
            envelope.seq = UInt64(index)
            writer.reset()
            envelope.encode(to: &writer)
            let decoded = writer.withUnsafeBytes { raw -> Envelope? in try? Envelope(messagePack: raw) }
            checksum += Double(decoded?.seq ?? 0)
        }
        let envelopeSeconds = Double(Clock.monotonicNs() - envelopeStart) / 1e9
        print(
            #"{"benchmark":"codec","iterations":\#(iterations),"touch_frame_per_s":\#(Int(Double(frameIterations) / frameSeconds)),"envelope_per_s":\#(Int(Double(envelopeIterations) / envelopeSeconds)),"bytes":\#(frame.messagePack.count),"checksum":\#(checksum > 0)}"#
        )
    }

    /// One hop through Publisher and Subscriber: envelope stamping, decoding and sequence tracking.
    static func hop(size: Int, count: Int, endpoint: String) throws {
        let context = try ZMQContext()
        // The subscriber binds and the publisher connects, as in raw_hop.c.
        let received = Receiver(context: context, endpoint: endpoint, count: count)
        let publisher = try Publisher(context: context, endpoint: endpoint, name: "bench")
        try publisher.socket.setOption(ZMQ_XPUB_NODROP, 1)
        received.start()
        guard try publisher.waitForSubscriber(timeoutMs: 10_000) else { fatalError("no subscriber") }
        let payload = [UInt8](repeating: 0x41, count: size)
        let schema = SchemaID("bench.blob", major: 1)
        let topic = try Topic("bench/d0/")
        for _ in 0..<count { try publisher.publish(payload: payload, schema: schema, on: topic) }
        let (seconds, gaps) = received.wait()
        print(
            #"{"peer":"uibus","size":\#(size),"count":\#(count),"rate_per_s":\#(Int(Double(count - 1) / seconds)),"gaps":\#(gaps)}"#
        )
    }
}

extension BusBenchmark {
    /// A subscriber that reads until its first message arrives, says `heard`, and never reads
    /// again, publishing its health every 200 ms: a service stuck in its work, as the bus sees it
    /// (`Tests/python/test_subscriber_budget.py` measures what it holds).
    static func stall(endpoint: String, health: String, budget: Int) throws {
        let context = try ZMQContext()
        let subscriber = try Subscriber(
            context: context, endpoint: endpoint, prefixes: ["big/"], receiveBudgetBytes: budget, bind: true)
        let publisher = try Publisher(context: context, endpoint: health, name: "stall", joinGraceMs: 0)
        var reporter = HealthReporter(service: "stall", statistics: subscriber.statistics, epoch: publisher.epoch)
        while subscriber.statistics.value(.received) == 0 { _ = try subscriber.receive(timeoutMs: 100) }
        FileHandle.standardOutput.write("heard\n".data(using: .utf8)!)
        while true {
            try publisher.publish(reporter.report(state: .ready), on: try reporter.topic)
            usleep(200_000)
        }
    }
}

/// The receiving thread of the hop benchmark; its socket never leaves that thread.
final class Receiver: @unchecked Sendable {
    let context: ZMQContext
    let endpoint: String
    let count: Int
    private let done = DispatchSemaphore(value: 0)
    private var seconds = 0.0
    private var gaps: UInt64 = 0

    init(context: ZMQContext, endpoint: String, count: Int) {
        self.context = context
        self.endpoint = endpoint
        self.count = count
    }

    func start() {
        Thread {
            do {
                let subscriber = try Subscriber(
                    context: self.context, endpoint: self.endpoint, prefixes: ["bench/"], bind: true)
                var first: UInt64 = 0
                for index in 0..<self.count {
                    while try subscriber.receive(timeoutMs: 1000) == nil {}
                    if index == 0 { first = Clock.monotonicNs() }
                }
                self.seconds = Double(Clock.monotonicNs() - first) / 1e9
                self.gaps = subscriber.statistics.counters.gaps
            } catch {
                fatalError("receiver: \(error)")
            }
            self.done.signal()
        }.start()
    }

    func wait() -> (Double, UInt64) {
        self.done.wait()
        return (self.seconds, self.gaps)
    }
}
