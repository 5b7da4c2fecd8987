import BusSchema
import BusTools
import Foundation

/// A bus session as `bus-tap record` wrote it: every message with its topic, envelope
/// metadata, both time stamps and the decoded JSON payload, in recording order.
public struct Recording: Sendable {
    /// One recorded message.
    public struct Message: Sendable {
        public var topic: String
        /// The schema id from the channel metadata (falls back to the MCAP schema name).
        public var schema: String
        public var publisher: String
        public var epoch: String
        /// When the recorder received it (MCAP log_time, wall clock ns).
        public var logTimeNs: UInt64
        /// When the publisher stamped it (MCAP publish_time: the envelope's wall clock ns).
        public var publishTimeNs: UInt64
        public var payload: Value
    }

    public var path: String
    public var messages: [Message]

    public init(path: String, messages: [Message]) {
        self.path = path
        self.messages = messages
    }

    /// Reads and decodes the MCAP file at `path`.
    ///
    /// - Throws: ``ReportError`` naming the file: missing, not MCAP, truncated, or a payload that is not JSON.
    public static func load(path: String) throws -> Recording {
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw ReportError(.missingRecording, "\(path) does not exist or cannot be read")
        }
        let reader: MCAPReader
        do {
            reader = try MCAPReader(path: path)
        } catch {
            throw ReportError(.corruptRecording, "\(error)")
        }
        var messages: [Message] = []
        messages.reserveCapacity(reader.messages.count)
        for (index, message) in reader.messages.enumerated() {
            let payload: Value
            do {
                payload = try JSONReader.parse(String(decoding: message.data, as: UTF8.self))
            } catch {
                throw ReportError(.badMessage, "\(path): message \(index) on \(message.channel.topic): \(error)")
            }
            let metadata = message.channel.metadata
            messages.append(
                Message(
                    topic: message.channel.topic,
                    schema: metadata["schema"] ?? reader.schemas[message.channel.schemaID]?.name ?? "?",
                    publisher: metadata["pub"] ?? "?", epoch: metadata["epoch"] ?? "?", logTimeNs: message.logTime,
                    publishTimeNs: message.publishTime, payload: payload))
        }
        return Recording(path: path, messages: messages)
    }
}
