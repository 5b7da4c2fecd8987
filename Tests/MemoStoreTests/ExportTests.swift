import BusSchema
import BusTestSupport
import Foundation
import MessageFixtures
import Testing

@testable import MemoStore

@Suite struct ExportTests {
    /// 2026-01-01 00:00:00.123 UTC and 2026-01-01 00:01:52.456 UTC.
    static let created: Int64 = 1_767_225_600_123
    static let updated: Int64 = 1_767_225_712_456

    static let memos = [
        MemoRecord.memo(
            "m1", text: "牛乳と卵を買う\nFrom the shop\n>From here", width: 1, height: 1, z: 1, color: "yellow"
        ) {
            $0.createdAt = created
            $0.updatedAt = updated
        },
        MemoRecord.memo("m2", text: "Plain note", width: 1, height: 1, z: 2, color: "blue") {
            $0.trashedAt = updated
            $0.createdAt = created
            $0.updatedAt = updated
        },
    ]

    static let exporter = MemoExporter(mailAddress: "FloatyMemo <memo@localhost>")

    @Test func textGolden() {
        #expect(
            Self.exporter.document(Self.memos, format: .text)
                == "牛乳と卵を買う\nFrom the shop\n>From here\n\n----\n\nPlain note\n")
    }

    @Test func markdownGolden() {
        #expect(
            Self.exporter.document(Self.memos, format: .md) == """
                # Memos

                ## 牛乳と卵を買う

                牛乳と卵を買う
                From the shop
                >From here

                *yellow · created 2026-01-01 00:00 UTC · updated 2026-01-01 00:01 UTC*

                ## Plain note

                Plain note

                *blue · created 2026-01-01 00:00 UTC · updated 2026-01-01 00:01 UTC · in the trash*

                """)
    }

    @Test func emlGolden() {
        let file = Self.exporter.emlFiles(Self.memos)[0]
        #expect(file.name == "m1.eml")
        #expect(
            file.content
                == [
                    "From: FloatyMemo <memo@localhost>", "To: FloatyMemo <memo@localhost>",
                    "Subject: =?UTF-8?B?54mb5Lmz44Go5Y2144KS6LK344GG?=", "Date: Thu, 1 Jan 2026 00:01:52 +0000",
                    "Message-ID: <m1@memo.uibus>", "MIME-Version: 1.0", "Content-Type: text/plain; charset=utf-8",
                    "Content-Transfer-Encoding: 8bit", "", "牛乳と卵を買う", "From the shop", ">From here", "",
                ].joined(separator: "\r\n"))
    }

    @Test func mboxGoldenQuotesFromLinesInBodiesOnly() {
        let mbox = Self.exporter.document(Self.memos, format: .mbox)
        #expect(mbox.hasPrefix("From memo@localhost Thu Jan  1 00:01:52 2026\nFrom: FloatyMemo <memo@localhost>\n"))
        #expect(mbox.contains("\n\n牛乳と卵を買う\n>From the shop\n>>From here\n\nFrom memo@localhost "))
        #expect(!mbox.contains("\r"))
        #expect(mbox.hasSuffix("\n\nPlain note\n\n"))
    }

    @Test func longSubjectIsSplitIntoEncodedWordsBetweenCharacters() {
        let subject = MemoExporter.encodedSubject(String(repeating: "東京タワー", count: 8), lineEnd: "\r\n")
        let words = subject.components(separatedBy: "\r\n ")
        #expect(words.count > 1)
        #expect(words.allSatisfy { $0.count <= 75 && $0.hasPrefix("=?UTF-8?B?") && $0.hasSuffix("?=") })
    }

    @Test func pythonEmailParsesEmlAndMbox() throws {
        let fixture = try StoreFixture()
        var memos = Self.memos
        memos[1].text = String(repeating: "とても長い件名のメモです。", count: 10) + "\n" + String(repeating: "x", count: 1200)
        for file in Self.exporter.emlFiles(memos) {
            try Data(file.content.utf8).write(to: URL(fileURLWithPath: fixture.directory + "/" + file.name))
        }
        try Data(Self.exporter.document(memos, format: .mbox).utf8).write(
            to: URL(fileURLWithPath: fixture.directory + "/all.mbox"))
        let script = """
            import email, email.policy, mailbox, sys, json
            d = sys.argv[1]
            out = []
            for name in ["m1.eml", "m2.eml"]:
                with open(f"{d}/{name}", "rb") as f:
                    m = email.message_from_binary_file(f, policy=email.policy.default)
                assert not m.defects, m.defects
                out.append([str(m["subject"]), m.get_content(), str(m["date"])])
            box = [[str(email.message_from_bytes(m.as_bytes(), policy=email.policy.default)["subject"]),
                    email.message_from_bytes(m.as_bytes(), policy=email.policy.default).get_content()]
                   for m in mailbox.mbox(f"{d}/all.mbox")]
            print(json.dumps({"eml": out, "mbox": box}, ensure_ascii=False))
            """
        let run = try ChildProcess.run("/usr/bin/python3", ["-c", script, fixture.directory])
        #expect(run.status == 0, "\(run.stderr)")
        let output = run.stdout
        let value = try JSONReader.parse(output)
        let eml = try #require(value["eml"]?.arrayValue)
        #expect(eml[0].arrayValue?[0].stringValue == "牛乳と卵を買う")
        #expect(eml[0].arrayValue?[1].stringValue == "牛乳と卵を買う\nFrom the shop\n>From here\n")
        #expect(eml[0].arrayValue?[2].stringValue == "Thu, 01 Jan 2026 00:01:52 +0000")
        #expect(eml[1].arrayValue?[0].stringValue == String(memos[1].text.prefix(60)) + "…")
        // A base64 body is in canonical form (CRLF), which Python keeps.
        #expect(eml[1].arrayValue?[1].stringValue == memos[1].text.replacing("\n", with: "\r\n") + "\r\n")
        let mbox = try #require(value["mbox"]?.arrayValue)
        #expect(mbox.count == 2)
        // Python's mailbox reads mboxo and keeps the mboxrd quoting; an mboxrd reader removes one `>`.
        #expect(mbox[0].arrayValue?[1].stringValue == "牛乳と卵を買う\n>From the shop\n>>From here\n")
    }

    @Test func exportCommandPutsEmlInFilesAndOthersInExport() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        _ = store.create(fixture, text: "a")
        let eml = store.run(fixture.command(.export) { $0.format = .eml }).ack
        #expect(eml.files?.map(\.name) == ["m1.eml"])
        #expect(eml.export == nil)
        let text = store.run(fixture.command(.export) { $0.format = .text }).ack
        #expect(text.export == "a\n")
    }
}
