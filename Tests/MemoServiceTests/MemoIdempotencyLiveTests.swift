import Bus
import BusSchema
import BusTestSupport
import Foundation
import MemoStore
import Testing

/// The live `memo-store` answering what a hostile or careless client sends: reused command ids,
/// client names that are no topic, oversized commands, and exports larger than one message.
@Suite(.serialized) struct MemoIdempotencyLiveTests {
    /// A `front m1` sent under an id an earlier create used was answered with the create's ack
    /// (memo m2) and never applied; now it is refused, and the create's own resend still gets its own ack.
    @Test func aReusedCmdIdWithAnotherPayload_isRejectedNeverAnsweredWithAnotherCommandsAck() throws {
        let harness = try MemoServiceHarness()
        defer { try? harness.stop() }
        let first = try harness.round(MemoServiceHarness.command("board1:1", .create) { $0.text = "one" })
        let create = MemoServiceHarness.command("board1:2", .create) { $0.text = "two" }
        let second = try harness.round(create)
        #expect(first.memoId == "m1" && second.memoId == "m2")
        let front = try harness.round(MemoServiceHarness.command("board1:2", .front) { $0.memoId = "m1" })
        #expect(front.status == .rejected)
        #expect(front.reason?.hasPrefix("cmd_id_reused") == true)
        #expect(front.op == .front && front.memoId == "m1")
        let resent = try harness.round(create)
        #expect(resent.status == .duplicate && resent.memoId == "m2" && resent.seq == second.seq)
        #expect(try MemoStore(path: harness.database).allMemos().count == 2)
    }

    @Test(arguments: [" ", String(repeating: "c", count: 256), "c\u{0}1", "a/b", "_invalid", ""])
    func aClientThatIsNoTopicName_isRefusedOnTheReservedTopicAndNothingIsCommitted(client: String) throws {
        let harness = try MemoServiceHarness()
        defer { try? harness.stop() }
        let invalid = try Subscriber(
            context: harness.context, endpoint: harness.proxy.config.subscribe, prefixes: ["memo/ack/"],
            filter: SchemaFilter([MemoAck.self]))
        defer { invalid.socket.close() }
        #expect(try harness.client.waitForSubscriber(matching: try Topic("memo/ack/_invalid/"), timeoutMs: 5000))
        var topics: [String] = []
        var refusal: MemoAck?
        var sent = 0
        try waitUntil("the refusal on memo/ack/_invalid/") {
            // The new subscription reaches the store's publisher on a connection of its own, not
            // always before the command does; a refusal published before it is delivered to no
            // one (the zguide's slow joiner), so the command goes again under a new id.
            sent += 1
            var command = MemoServiceHarness.command("bad:\(sent)", .create) { $0.text = "sneaky" }
            command.client = client
            try harness.send(command)
            guard let delivery = try invalid.receive(timeoutMs: 1000) else { return false }
            topics.append(delivery.topic)
            refusal = try MemoAck(messagePack: delivery.payload)
            return true
        }
        #expect(topics == ["memo/ack/_invalid/"])
        #expect(refusal?.status == .rejected && refusal?.cmdId.hasPrefix("bad:") == true)
        #expect(refusal?.reason?.hasPrefix("bad_client") == true)
        let good = try harness.round(MemoServiceHarness.command("ok:1", .create) { $0.text = "fine" })
        #expect(good.status == .ok && good.seq == 1)
        let extra = try harness.health { $0["commands"]?.intValue == Int64(sent + 1) }
        #expect(extra["bad_clients"]?.intValue == Int64(sent))
        #expect(try MemoStore(path: harness.database).allMemos().map(\.text) == ["fine"])
    }

    @Test func aTenMegabyteCommand_isAnsweredTooLarge() throws {
        let harness = try MemoServiceHarness()
        defer { try? harness.stop() }
        let ack = try harness.round(
            MemoServiceHarness.command("big:1", .create) { $0.text = String(repeating: "x", count: 10 << 20) })
        #expect(ack.status == .rejected)
        #expect(ack.reason?.hasPrefix("too_large") == true)
        let extra = try harness.health { $0["commands"]?.intValue == 1 }
        #expect(extra["too_large"]?.intValue == 1)
        #expect(try MemoStore(path: harness.database).allMemos().isEmpty)
    }

    /// 300 memos of 60 KB: an 18 MB export, over the bus's 16 MB message limit, arrives whole in parts.
    @Test func anExportLargerThanOneMessage_arrivesWholeInParts() throws {
        let harness = try MemoServiceHarness()
        defer { try? harness.stop() }
        let count = 300
        var ids: Set<String> = []
        for index in 0..<count {
            let text = "\(index)番: " + String(repeating: "東京タワー", count: 4000)
            let command = MemoServiceHarness.command("e\(index)", .create) { $0.text = text }
            try harness.send(command)
            ids.insert(command.cmdId)
        }
        #expect(try harness.acks(for: ids, seconds: 60).values.allSatisfy { $0.status == .ok })
        try harness.send(MemoServiceHarness.command("export:1", .export) { $0.format = .text })
        var parts: [MemoAck] = []
        try waitUntil("every part of the export", seconds: 60) {
            while let ack = try harness.nextAck(withinMs: 50) {
                if ack.cmdId == "export:1" { parts.append(ack) }
            }
            return parts.first.map { parts.count == $0.chunks } ?? false
        }
        #expect(parts.count > 64)
        let whole = try #require(MemoAck.reassembled(parts))
        let store = try MemoStore(path: harness.database)
        let expected = MemoExporter(mailAddress: store.configuration.mailAddress).document(
            try store.exportedMemos(includeTrash: false), format: .text)
        #expect(whole.export?.utf8.count ?? 0 > 16 << 20)
        #expect(whole.export == expected)
        let extra = try harness.health { $0["chunked_acks"]?.intValue == 1 }
        #expect(extra["unpublished_acks"]?.intValue == 0)
    }
}
