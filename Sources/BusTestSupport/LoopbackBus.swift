import Bus
import BusSchema
import Foundation
import Synchronization

/// A private bus inside the test process: a real `BusProxy` on its own thread, on `inproc://`
/// endpoints (nothing on disk; every socket must use ``context``) or on ipc endpoints in a
/// temporary directory. Services built on ``config`` and ``context`` (with a `ManualClock`)
/// run in the test's own thread and are tested in milliseconds.
public final class LoopbackBus: Sendable {
    /// Where the endpoints live.
    public enum Transport: Sendable {
        /// `inproc://` endpoints: in-process only, no files, libzmq's fastest transport.
        case inproc
        /// `ipc://` endpoints in ``directory``: what the deployed bus uses, reachable by processes.
        case ipc
    }

    /// The temporary directory of an ipc bus (also where a test may put files); removed by ``stop()``.
    public let directory: String
    public let config: BusConfig
    public let context: ZMQContext
    private let stopFlag = Atomic<Bool>(false)
    private let finished = Atomic<Bool>(false)
    private let ready = Atomic<Bool>(false)
    private static let serial = Atomic<Int>(0)

    /// Starts a proxy and returns once it is bound.
    ///
    /// - Throws: `TimedOut` if the proxy does not bind within 10 s.
    public init(
        _ transport: Transport = .inproc, highWaterMark: Int32 = BusProxy.defaultHighWaterMark,
        maximumMessageSize: Int64 = 1 << 20, messagesPerTurn: Int = 4096, healthIntervalMs: Int = 200
    ) throws {
        self.directory = try ScratchDirectory.make("uibus")
        switch transport {
        case .inproc:
            let name = "uibus-loopback-\(Self.serial.wrappingAdd(1, ordering: .relaxed).newValue)"
            self.config = BusConfig(publish: "inproc://\(name)-in", subscribe: "inproc://\(name)-out")
        case .ipc:
            self.config = BusConfig(publish: "ipc://\(self.directory)/in", subscribe: "ipc://\(self.directory)/out")
        }
        self.context = try ZMQContext()
        let thread = Thread { [self] in
            do {
                let proxy = try BusProxy(
                    context: self.context, config: self.config, highWaterMark: highWaterMark,
                    maximumMessageSize: maximumMessageSize, messagesPerTurn: messagesPerTurn)
                try proxy.bind()
                self.ready.store(true, ordering: .releasing)
                try proxy.run(healthIntervalMs: healthIntervalMs) { self.stopFlag.load(ordering: .acquiring) }
                proxy.close()
            } catch {
                FileHandle.standardError.write("loopback proxy failed: \(error)\n".data(using: .utf8)!)
            }
            self.finished.store(true, ordering: .releasing)
        }
        thread.start()
        try waitUntil("proxy bound") {
            self.ready.load(ordering: .acquiring) || self.finished.load(ordering: .acquiring)
        }
    }

    /// Stops the proxy thread and removes the directory.
    ///
    /// - Throws: `TimedOut` if the proxy does not stop within 10 s.
    public func stop() throws {
        self.stopFlag.store(true, ordering: .releasing)
        try waitUntil("proxy stopped") { self.finished.load(ordering: .acquiring) }
        ScratchDirectory.remove(self.directory)
    }

    /// A publisher on this bus.
    public func publisher(_ name: String = "test-pub", highWaterMark: Int32 = 10_000) throws -> Publisher {
        try Publisher(
            context: self.context, endpoint: self.config.publish, name: name, sendHighWaterMark: highWaterMark)
    }

    /// A subscriber on this bus.
    public func subscriber(
        _ prefixes: [String] = [""], filter: SchemaFilter? = nil, maximumMessageSize: Int = 1 << 20,
        highWaterMark: Int32 = 10_000
    ) throws -> Subscriber {
        try Subscriber(
            context: self.context, endpoint: self.config.subscribe, prefixes: prefixes, filter: filter,
            maximumMessageSize: maximumMessageSize, receiveHighWaterMark: highWaterMark)
    }
}

/// Receives deliveries until `count` arrived or `seconds` passed.
public func receive(_ subscriber: Subscriber, count: Int, seconds: Double = 10) throws -> [Delivery] {
    var deliveries: [Delivery] = []
    let deadline = Clock.monotonicNs() + UInt64(seconds * 1e9)
    while deliveries.count < count, Clock.monotonicNs() < deadline {
        if let delivery = try subscriber.receive(timeoutMs: 50) { deliveries.append(delivery) }
    }
    return deliveries
}
