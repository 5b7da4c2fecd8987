import BusSchema
import ServiceSupport

/// `bus-tap info FILE.mcap`: a recording's summary, as `mcap info` and `ros2 bag info` print it.
enum MCAPSummaryText {
    /// Reads the file and describes it: duration, messages, chunks, and per topic its schema and count.
    static func describe(path: String) throws -> String {
        let recording = try MCAPReader(path: path)
        let times = recording.messages.map(\.logTime)
        let durationNs = (times.max() ?? 0) - (times.min() ?? 0)
        var counts: [UInt16: Int] = [:]
        for message in recording.messages { counts[message.channel.id, default: 0] += 1 }
        var lines = [
            "file:      \(path)",
            "messages:  \(recording.messages.count)",
            "duration:  \(HumanUnits.duration(microseconds: Double(durationNs) / 1000))",
            "chunks:    \(recording.chunkCount)"
                + (recording.hasStatistics ? " (indexed, with statistics)" : " (no summary)"),
            "schemas:   " + recording.schemas.values.sorted { $0.id < $1.id }.map(\.name).joined(separator: ", "),
            "topics:",
        ]
        let channels = recording.channels.values.sorted { ($0.topic, $0.id) < ($1.topic, $1.id) }
        let width = channels.map(\.topic.count).max() ?? 0
        for channel in channels {
            let schema = recording.schemas[channel.schemaID]?.name ?? "?"
            let version = channel.metadata["major"].map { " v\($0).\(channel.metadata["minor"] ?? "0")" } ?? ""
            let padding = String(repeating: " ", count: width - channel.topic.count)
            lines.append("  \(channel.topic)\(padding)  \(counts[channel.id] ?? 0) msgs  \(schema)\(version)")
        }
        return lines.joined(separator: "\n")
    }
}
