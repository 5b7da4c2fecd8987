import Bus
import BusSchema
import CZeroMQ
import ServiceSupport

extension BusTap {
    /// `pub`: validates a JSON payload against its schema, then publishes it.
    func pub(topic text: String) throws {
        guard let schemaID = self.options.string("schema") else { throw UsageError("pub needs --schema ID") }
        guard let json = self.options.string("json") else { throw UsageError("pub needs --json '{…}'") }
        let major = try self.options.int("major") ?? 1
        let rate = try self.options.double("rate")
        let count = try self.options.int("count") ?? 1
        let waitMs = try self.options.int("wait-ms") ?? 2000
        try self.options.finish(maximumPositionals: 2)
        if let rate, rate <= 0 { throw UsageError("--rate must be above 0") }
        let topic: Topic
        do {
            topic = try Topic(text)
        } catch {
            throw UsageError("\(error)")
        }
        let payload: Value
        do {
            payload = try JSONReader.parse(json)
        } catch {
            throw UsageError("--json is not valid JSON: \(error)")
        }
        let store = try Self.schemaStore()
        try store.validate(payload, id: schemaID, major: major)
        let schema = SchemaID(schemaID, major: major, minor: try store.minor(schemaID, major: major))

        let publisher = try self.oneShotPublisher()
        if try !publisher.waitForSubscriber(matching: topic, timeoutMs: waitMs) {
            Log.error("bus-tap", "no subscriber for \(topic) after \(waitMs) ms; publishing anyway")
        }
        let start = Clock.monotonicNs()
        for index in 0..<count {
            if let rate {
                let due = start + UInt64(Double(index) / rate * 1e9)
                if try self.waitForSignal(until: due) { break }
            }
            try publisher.publish(payload, schema: schema, on: topic)
        }
    }

    /// `record`: writes every message under the prefixes to an MCAP file until stopped.
    func record(path: String, prefixes: [String]) throws {
        let count = try self.options.int("count")
        let duration = try self.durationMs()
        try self.options.finish(maximumPositionals: 2 + prefixes.count)
        let store = SchemaStore.locate()
        let writer = try MCAPWriter(path: path)
        var schemas: [String: UInt16] = [:]
        var channels: [String: UInt16] = [:]
        var recorded = 0
        _ = try self.listen(prefixes.isEmpty ? [""] : prefixes, durationMs: duration) { delivery, subscriber in
            guard let payload = Self.payload(delivery, subscriber) else { return true }
            let envelope = delivery.envelope
            let schemaKey = "\(envelope.schema)/v\(envelope.major)"
            if schemas[schemaKey] == nil {
                let id = UInt16(schemas.count + 1)
                let text = (try? store?.text(envelope.schema, major: envelope.major)) ?? nil
                try writer.addSchema(id: id, name: envelope.schema, data: text ?? "{}")
                schemas[schemaKey] = id
            }
            let channelKey = "\(delivery.topic)|\(schemaKey).\(envelope.minor)|\(envelope.publisher)|\(envelope.epoch)"
            if channels[channelKey] == nil {
                let id = UInt16(truncatingIfNeeded: channels.count + 1)
                try writer.addChannel(
                    id: id, schemaID: schemas[schemaKey]!, topic: delivery.topic,
                    metadata: [
                        ("schema", envelope.schema), ("major", "\(envelope.major)"), ("minor", "\(envelope.minor)"),
                        ("pub", envelope.publisher), ("epoch", "\(envelope.epoch)"),
                    ])
                channels[channelKey] = id
            }
            try writer.addMessage(
                channelID: channels[channelKey]!, sequence: UInt32(truncatingIfNeeded: envelope.seq),
                logTime: Clock.wallNs(), publishTime: envelope.wall, data: payload.json)
            recorded += 1
            return count.map { recorded < $0 } ?? true
        }
        try writer.finish()
        Log.error("bus-tap", "recorded \(recorded) messages to \(path)")
    }

    /// `replay`: publishes a recording's messages again, paced as recorded (times `--rate`).
    func replay(path: String) throws {
        let rate = try self.options.double("rate") ?? 1
        let loop = self.options.flag("loop")
        let waitMs = try self.options.int("wait-ms") ?? 2000
        try self.options.finish(maximumPositionals: 2)
        if rate < 0 { throw UsageError("--rate must be 0 (as fast as possible) or above") }
        let recording = try MCAPReader(path: path)
        guard let first = recording.messages.first else { throw ToolError("\(path) holds no messages") }
        let publisher = try self.oneShotPublisher()
        if try !publisher.waitForSubscriber(timeoutMs: waitMs) {
            Log.error("bus-tap", "no subscriber after \(waitMs) ms; replaying anyway")
        }
        repeat {
            let start = Clock.monotonicNs()
            for (index, message) in recording.messages.enumerated() {
                if rate > 0 {
                    let offset = Double(message.logTime &- first.logTime) / rate
                    if try self.waitForSignal(until: start + UInt64(max(offset, 0))) { return }
                }
                let (schema, topic, payload) = try Self.decode(message, index: index, recording: recording, path: path)
                try publisher.publish(payload, schema: schema, on: topic)
            }
        } while loop
    }

    private static func decode(_ message: MCAPReader.Message, index: Int, recording: MCAPReader, path: String) throws
        -> (SchemaID, Topic, Value)
    {
        let metadata = message.channel.metadata
        let name = metadata["schema"] ?? recording.schemas[message.channel.schemaID]?.name ?? ""
        guard !name.isEmpty else { throw ToolError("\(path): message \(index) has no schema name") }
        let schema = SchemaID(
            name, major: Int(metadata["major"] ?? "") ?? 1, minor: Int(metadata["minor"] ?? "") ?? 0)
        do {
            let payload = try message.data.withUnsafeBytes { try JSONReader.parse($0) }
            return (schema, try Topic(message.channel.topic), payload)
        } catch {
            throw ToolError("\(path): message \(index) on \(message.channel.topic): \(error)")
        }
    }

    /// Sleeps until the monotonic time `due`; returns true if a stop signal came first.
    func waitForSignal(until due: UInt64) throws -> Bool {
        var poller = Poller()
        let index = poller.add(fileDescriptor: self.signals.descriptor)
        while true {
            let now = Clock.monotonicNs()
            if now >= due { return false }
            try poller.poll(timeoutMs: Int((due - now) / 1_000_000))
            if poller.isReadable(index), self.signals.pending() != nil { return true }
        }
    }

    /// A publisher for a tool that sends and exits: it may linger up to 10 s so that what it
    /// sent is delivered even on a loaded machine (services keep the 1 s default).
    func oneShotPublisher() throws -> Publisher {
        let publisher = try Publisher(
            context: self.context, endpoint: self.config.publish, name: "bus-tap", curve: try self.config.curveClient())
        try publisher.socket.setOption(ZMQ_LINGER, 10_000)
        return publisher
    }

    static func schemaStore() throws -> SchemaStore {
        guard let store = SchemaStore.locate() else {
            throw ToolError("cannot find the schemas/ directory (run from the repository or set UIBUS_SCHEMAS)")
        }
        return store
    }
}
