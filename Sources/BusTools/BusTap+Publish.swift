import Bus
import BusSchema
import CZeroMQ
import Foundation
import ServiceSupport

extension BusTap {
    /// `pub`: validates a JSON payload (the argument, `--file F`, or stdin) against its schema and
    /// the topic's conventional schema, then publishes it.
    func pub(topic text: String, inline: String?) throws {
        guard let schemaID = self.options.string("schema") else { throw UsageError("pub needs --schema ID") }
        let file = self.options.string("file")
        let major = try self.options.int("major") ?? 1
        let rate = try self.options.double("rate")
        let count = try self.options.int("count") ?? 1
        let waitMs = try self.options.int("wait-ms") ?? 2000
        try self.options.finish(maximumPositionals: 3)
        if let rate, rate <= 0 { throw UsageError("--rate must be above 0") }
        if inline != nil && file != nil { throw UsageError("give the payload as an argument or with --file, not both") }
        let topic: Topic
        do {
            topic = try Topic(text)
        } catch {
            throw UsageError("\(error)")
        }
        // A payload argument of `-` means stdin, as `--file -` does.
        let literal = inline == "-" ? nil : inline
        let path = file ?? "-"
        let json = try literal ?? Self.readPayload(path)
        let source = literal != nil ? "the payload" : path == "-" ? "stdin" : path
        let payload: Value
        do {
            payload = try JSONReader.parse(json)
        } catch {
            throw UsageError("\(source) is not valid JSON: \(error)")
        }
        let store = try Self.schemaStore()
        try store.validate(payload, id: schemaID, major: major)
        let expected = store.schemas(carriedBy: topic.rawValue)
        if !expected.isEmpty && !expected.contains(schemaID) {
            throw ToolError(
                "\(topic) carries \(expected.joined(separator: " or ")), not \(schemaID): its subscribers would reject it"
            )
        }
        let schema = SchemaID(schemaID, major: major, minor: try store.minor(schemaID, major: major))

        try self.requireProxy(at: self.config.publish)
        let publisher = try self.oneShotPublisher()
        if try !publisher.waitForSubscriber(matching: topic, timeoutMs: waitMs) {
            Log.error(
                "bus-tap",
                "no subscriber for \(topic) after \(HumanUnits.duration(milliseconds: Double(waitMs))); publishing anyway"
            )
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

    /// The payload text from a file, or from stdin for `-`.
    static func readPayload(_ path: String) throws -> String {
        guard path != "-" else {
            return String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
        }
        do {
            return try TextFile.read(path)
        } catch {
            throw ToolError("cannot read the payload file \(path) (\(error))")
        }
    }

    /// `record`: writes every message matching the patterns to an indexed MCAP file until stopped,
    /// one channel per (topic, schema) whoever published it.
    func record(path: String, patterns: [TopicPattern]) throws {
        let count = try self.options.int("count")
        let duration = try self.durationMs()
        let force = self.options.flag("force")
        let compression = try Self.compression(self.options.string("compression") ?? Self.recordCompression)
        let waitSeconds = try self.options.double("wait-for-proxy") ?? 1.8
        try self.options.finish(maximumPositionals: 2 + patterns.count)
        guard waitSeconds >= 0, waitSeconds <= 3600 else {
            throw UsageError("--wait-for-proxy takes seconds from 0 to 3600, not \(waitSeconds)")
        }
        // Checked before the file is created, so that a missing proxy leaves no empty recording.
        try self.requireProxy(at: self.config.subscribe, waitMs: Int(waitSeconds * 1000))
        let store = SchemaStore.locate()
        let writer = try MCAPWriter(path: path, overwrite: force, compression: compression)
        var schemas: [String: UInt16] = [:]
        var channels: [String: UInt16] = [:]
        var recorded = 0
        let begun = Clock.monotonicNs()
        _ = try self.listen(patterns.isEmpty ? [try TopicPattern("")] : patterns, durationMs: duration) {
            delivery, subscriber in
            guard let payload = Self.payload(delivery, subscriber) else { return true }
            let envelope = delivery.envelope
            let schemaKey = "\(envelope.schema)/v\(envelope.major)"
            if schemas[schemaKey] == nil {
                let id = UInt16(truncatingIfNeeded: schemas.count + 1)
                let text = (try? store?.text(envelope.schema, major: envelope.major)) ?? nil
                try writer.addSchema(id: id, name: envelope.schema, data: text ?? "{}")
                schemas[schemaKey] = id
            }
            let channelKey = "\(delivery.topic)|\(schemaKey)"
            if channels[channelKey] == nil {
                let id = UInt16(truncatingIfNeeded: channels.count + 1)
                try writer.addChannel(
                    id: id, schemaID: schemas[schemaKey]!, topic: delivery.topic,
                    // `pub` and `epoch` are the first publisher's: a channel is per (topic, schema), whoever sends.
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
        let seconds = Double(Clock.monotonicNs() - begun) / 1e6
        Log.error(
            "bus-tap",
            "recorded \(recorded) messages on \(channels.count) topics in \(HumanUnits.duration(milliseconds: seconds)) to \(path)"
        )
    }

    /// `record`'s chunk compression when `--compression` is not given (README, "Recordings", has the measurements).
    static let recordCompression = "zstd"

    /// The zstd level `record` uses: level 1, the fastest (README, "Recordings").
    static let recordZstdLevel: Int32 = 1

    /// `--compression`'s value as an ``MCAPCompression``.
    static func compression(_ name: String) throws -> MCAPCompression {
        switch name {
        case "zstd": .zstd(level: Self.recordZstdLevel)
        case "none": MCAPCompression.none
        default: throw UsageError("--compression takes zstd or none, not \(name)")
        }
    }

    /// `replay`: publishes a recording's messages again, paced as recorded (times `--speed`), as a
    /// new publisher (a fresh epoch) with touch frames renumbered (``ReplayRemapper``), and says what it sent.
    func replay(path: String) throws {
        let speed = try self.options.double("speed") ?? 1
        let loop = self.options.flag("loop")
        let waitMs = try self.options.int("wait-ms") ?? 2000
        try self.options.finish(maximumPositionals: 2)
        if speed < 0 { throw UsageError("--speed must be 0 (as fast as possible) or above") }
        let recording = try MCAPReader(path: path)
        guard let first = recording.messages.first else { throw ToolError("\(path) holds no messages") }
        let messages = try recording.messages.enumerated().map { index, message in
            try Self.decode(message, index: index, recording: recording, path: path)
        }
        try self.requireProxy(at: self.config.publish)
        let publisher = try self.oneShotPublisher()
        if try !publisher.waitForSubscriber(timeoutMs: waitMs) {
            Log.error(
                "bus-tap", "no subscriber after \(HumanUnits.duration(milliseconds: Double(waitMs))); replaying anyway")
        }
        repeat {
            let start = Clock.monotonicNs()
            // Microseconds since 1970 grow faster than any device's frame counter and fit the schema's 2^53.
            var remapper = ReplayRemapper(frameBase: Int64(Clock.wallNs() / 1000), timeBaseNs: Int64(start))
            var perTopic: [String: Int] = [:]
            for (message, decoded) in zip(recording.messages, messages) {
                if speed > 0 {
                    let offset = Double(message.logTime &- first.logTime) / speed
                    if try self.waitForSignal(until: start + UInt64(max(offset, 0))) { return }
                }
                let payload = remapper.remap(decoded.payload, schema: decoded.schema.id)
                try publisher.publish(payload, schema: decoded.schema, on: decoded.topic)
                perTopic[decoded.topic.rawValue, default: 0] += 1
            }
            // Sent faster than recorded (--speed 0 or above 1), the frames' source times run ahead
            // of the clock: a next pass, or a replay started right after this one, must not begin
            // before them, or a recognizer would see the device's time go back and misjudge the
            // gesture (a velocity fitted across both passes).
            if let latest = remapper.latestTimeNs, try self.waitForSignal(until: UInt64(clamping: latest) + 1) {
                return
            }
            let seconds = Double(Clock.monotonicNs() - start) / 1e6
            var lines = [
                "replayed \(messages.count) messages from \(path) in \(HumanUnits.duration(milliseconds: seconds)) "
                    + "as bus-tap epoch \(publisher.epoch)"
            ]
            for topic in perTopic.keys.sorted() { lines.append("  \(topic)  \(perTopic[topic]!) msgs") }
            for device in remapper.sentFrames.keys.sorted() {
                let range = remapper.sentFrames[device]!
                lines.append("  device \(device): frames renumbered \(range.lowerBound)…\(range.upperBound)")
            }
            guard Log.out(lines.joined(separator: "\n")) else { return }
        } while loop
    }

    private static func decode(_ message: MCAPReader.Message, index: Int, recording: MCAPReader, path: String) throws
        -> (schema: SchemaID, topic: Topic, payload: Value)
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
        // No join grace: the verbs wait for their subscribers themselves (--wait-ms), and a grace
        // still running at exit would hold back what a short `pub` sent (the proxy's state cache
        // is no listener, so on an idle stack nothing else ends the grace).
        let publisher = try Publisher(
            context: self.context, endpoint: self.config.publish, name: "bus-tap", curve: try self.config.curveClient(),
            joinGraceMs: 0)
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
