import Bus
import BusSchema
import BusTestSupport
import Foundation
import Synchronization

/// A private bus for one test: a proxy on its own thread, ipc endpoints in a temp directory.
final class TestBus: Sendable {
    let directory: String
    let config: BusConfig
    let context: ZMQContext
    private let stopFlag = Atomic<Bool>(false)
    private let finished = Atomic<Bool>(false)
    private let ready = Atomic<Bool>(false)

    /// Starts a proxy and returns once it is bound.
    init(
        highWaterMark: Int32 = BusProxy.defaultHighWaterMark, maximumMessageSize: Int64 = 1 << 20,
        messagesPerTurn: Int = 4096
    ) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "uibus-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.directory = directory.path
        self.config = BusConfig(publish: "ipc://\(directory.path)/in", subscribe: "ipc://\(directory.path)/out")
        self.context = try ZMQContext()
        let thread = Thread { [self] in
            do {
                let proxy = try BusProxy(
                    context: self.context, config: self.config, highWaterMark: highWaterMark,
                    maximumMessageSize: maximumMessageSize, messagesPerTurn: messagesPerTurn)
                try proxy.bind()
                self.ready.store(true, ordering: .releasing)
                try proxy.run(healthIntervalMs: 200) { self.stopFlag.load(ordering: .acquiring) }
                proxy.close()
            } catch {
                FileHandle.standardError.write("test proxy failed: \(error)\n".data(using: .utf8)!)
            }
            self.finished.store(true, ordering: .releasing)
        }
        thread.start()
        try waitUntil("proxy bound") {
            self.ready.load(ordering: .acquiring) || self.finished.load(ordering: .acquiring)
        }
    }

    /// Stops the proxy thread and removes the directory.
    func stop() throws {
        self.stopFlag.store(true, ordering: .releasing)
        try waitUntil("proxy stopped") { self.finished.load(ordering: .acquiring) }
        try? FileManager.default.removeItem(atPath: self.directory)
    }

    func publisher(_ name: String = "test-pub", highWaterMark: Int32 = 10_000) throws -> Publisher {
        try Publisher(
            context: self.context, endpoint: self.config.publish, name: name, sendHighWaterMark: highWaterMark)
    }

    func subscriber(
        _ prefixes: [String] = [""], filter: SchemaFilter? = nil, maximumMessageSize: Int = 1 << 20,
        highWaterMark: Int32 = 10_000
    ) throws -> Subscriber {
        try Subscriber(
            context: self.context, endpoint: self.config.subscribe, prefixes: prefixes, filter: filter,
            maximumMessageSize: maximumMessageSize, receiveHighWaterMark: highWaterMark)
    }
}

/// Receives deliveries until `count` arrived or `seconds` passed.
func receive(_ subscriber: Subscriber, count: Int, seconds: Double = 10) throws -> [Delivery] {
    var deliveries: [Delivery] = []
    let deadline = Clock.monotonicNs() + UInt64(seconds * 1e9)
    while deliveries.count < count, Clock.monotonicNs() < deadline {
        if let delivery = try subscriber.receive(timeoutMs: 50) { deliveries.append(delivery) }
    }
    return deliveries
}
