import BusSchema

extension ReportModel {
    /// The totals as a few lines of plain text, for the demo's terminal.
    public func summaryText(reportPath: String) -> String {
        func list(_ counts: [Count]) -> String {
            counts.isEmpty ? "" : " (" + counts.map { "\($0.name) \($0.count)" }.joined(separator: ", ") + ")"
        }
        let acks = self.memoAcks.map { "\($0.name) \($0.count)" }.joined(separator: ", ")
        return """
            UIBus demo: \(self.messageCount) messages over \(Format.fixed(self.durationSeconds, 1)) s
              gestures recognized: \(self.gestures.reduce(0) { $0 + $1.count })\(list(self.gestures))
              component transitions: \(self.transitions.reduce(0) { $0 + $1.count })\(list(self.transitions))
              memos stored: \(self.memosStored)\(acks.isEmpty ? "" : " (acks: \(acks))")
              frames rendered: \(self.framesRendered)
              messages lost: \(self.messagesLost)
              latency p50 \(Format.latency(self.latency.p50Us)), p99 \(Format.latency(self.latency.p99Us))
              report: \(reportPath)
            """
    }

    /// The totals as a JSON value (what `--summary-json` writes).
    public var summaryJSON: Value {
        func map(_ counts: [Count]) -> Value {
            .map(ValueMap(counts.map { ($0.name, .int(Int64($0.count))) }))
        }
        return .map([
            "messages": .int(Int64(self.messageCount)),
            "duration_s": .double(self.durationSeconds),
            "gestures": map(self.gestures),
            "gestures_total": .int(Int64(self.gestures.reduce(0) { $0 + $1.count })),
            "transitions": map(self.transitions),
            "transitions_total": .int(Int64(self.transitions.reduce(0) { $0 + $1.count })),
            "memos_stored": .int(Int64(self.memosStored)),
            "memo_changes": map(self.memoChanges),
            "memo_acks": map(self.memoAcks),
            "frames_rendered": .int(Int64(self.framesRendered)),
            "messages_lost": .int(Int64(self.messagesLost)),
            "latency_p50_us": .double(self.latency.p50Us),
            "latency_p99_us": .double(self.latency.p99Us),
            "latency_p999_us": .double(self.latency.p999Us),
        ])
    }
}
