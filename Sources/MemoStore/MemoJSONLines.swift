import BusSchema

/// The JSON-lines form of the memo messages, for `memo-store apply` and offline tools.
///
/// A command line is the `memo.command` payload as a JSON object. An output line is
/// `{"topic": "<bus topic>", "payload": {…}}`, exactly what the service would publish.
public enum MemoJSONLines {
    /// What one input line turned into.
    public enum Input {
        case command(MemoCommand)
        /// A line whose payload did not decode but named `cmd_id` and `client`: answer it.
        case rejected(AddressedAck)
        /// A line with no one to answer (not JSON, or no `cmd_id`/`client`).
        case unusable(String)
    }

    /// Decodes one JSON line into a command (JSON → ``Value`` → MessagePack → ``MemoCommand``).
    public static func decode(_ line: String, seq: UInt64) -> Input {
        let value: Value
        do {
            value = try JSONReader.parse(line)
        } catch {
            return .unusable("not JSON: \(error)")
        }
        let payload = value.messagePack
        do {
            return .command(try MemoCommand(messagePack: payload))
        } catch let error as CodecError {
            guard let (client, ack) = MemoAck.rejecting(payload: payload, error: error, seq: seq) else {
                return .unusable("no cmd_id/client: \(error)")
            }
            return .rejected(AddressedAck(client: client, message: ack))
        } catch {
            return .unusable("\(error)")
        }
    }

    /// The output lines for a batch result: acks, then changes, then snapshot chunks.
    public static func lines(_ result: MemoApplyResult) -> [String] {
        var lines = result.acks.map { Self.line(topic: MemoClientName.ackTopic(for: $0.client), $0.message.value) }
        lines += result.changes.map { Self.line(topic: "memo/changed/", $0.value) }
        lines += result.snapshots.map { Self.line(topic: "memo/snapshot/\($0.client)/", $0.message.value) }
        return lines
    }

    /// One output line.
    public static func line(topic: String, _ payload: Value) -> String {
        Value.map(["topic": .string(topic), "payload": payload]).json
    }
}
