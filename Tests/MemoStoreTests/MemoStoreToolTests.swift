import BusSchema
import BusTestSupport
import Foundation
import MemoStore
import Testing

@Suite struct MemoStoreToolTests {
    @Test func checkPassesASoundFile() throws {
        let fixture = try StoreFixture()
        do { _ = try fixture.open().create(fixture, text: "東京") }
        let run = try ChildProcess.run("memo-store", ["check", "--db", fixture.path])
        #expect(run.status == 0)
        #expect(run.stdout.contains("result: ok"))
    }

    @Test func checkExitsNonZeroOnACorruptedFile() throws {
        let fixture = try StoreFixture()
        try MigrationTests.makeDamagedDatabase(fixture)
        let run = try ChildProcess.run("memo-store", ["check", "--db", fixture.path])
        #expect(run.status == 1)
        #expect(run.stdout.contains("result: DAMAGED"))
        #expect(!run.stdout.contains("integrity_check: ok"))
    }

    @Test func checkOfAMissingFileFails() throws {
        let fixture = try StoreFixture()
        let run = try ChildProcess.run("memo-store", ["check", "--db", fixture.directory + "/none.sqlite"])
        #expect(run.status != 0)
    }

    @Test func exportWritesEachFormatToStdoutAndEmlFilesIntoOut() throws {
        let fixture = try StoreFixture()
        try fixture.seed(["牛乳と卵を買う", "second"])
        let text = try ChildProcess.run("memo-store", ["export", "--db", fixture.path, "--format", "text"])
        #expect(text.stdout == "牛乳と卵を買う\n\n----\n\nsecond\n")
        let mbox = try ChildProcess.run("memo-store", ["export", "--db", fixture.path, "--format", "mbox"])
        #expect(mbox.stdout.components(separatedBy: "\nFrom memo@localhost ").count == 2)
        let eml = try ChildProcess.run("memo-store", ["export", "--db", fixture.path, "--format", "eml"])
        #expect(eml.stdout.components(separatedBy: MemoExporter.emlSeparator).count == 2)
        let out = fixture.directory + "/mail"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let files = try ChildProcess.run(
            "memo-store", ["export", "--db", fixture.path, "--format", "eml", "--out", out])
        #expect(files.status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).sorted() == ["m1.eml", "m2.eml"])
    }

    @Test func serviceModeWithADatabaseItCannotOpenExitsAsAPermanentFailure() throws {
        let run = try ChildProcess.run("memo-store", ["--db", "/nonexistent/memo.sqlite"])
        #expect(run.status == 78)
        #expect(run.stderr.contains("/nonexistent/memo.sqlite"))
    }

    /// kill -9 while batches are in flight, restart, resend unacked commands with the same ids:
    /// every acked command is stored once, none twice.
    @Test func storeKilledMidBatchLosesNoAcknowledgedCommand() throws {
        let fixture = try StoreFixture()
        let total = 240
        var acked: [String: MemoAck.Status] = [:]
        var next = 0
        var cycles = 0
        while acked.count < total && cycles < 40 {
            cycles += 1
            let child = try ChildProcess("memo-store", ["apply", "--db", fixture.path], input: true)
            let unacked = (0..<next).filter { acked["k:\($0)"] == nil }
            let fresh = Array(next..<min(total, next + 40))
            next = fresh.last.map { $0 + 1 } ?? next
            let sending = unacked + fresh
            for start in stride(from: 0, to: sending.count, by: 8) {
                let lines = sending[start..<min(sending.count, start + 8)].map { index in
                    #"{"cmd_id":"k:\#(index)","client":"k","op":"create","memo_id":"k\#(index)","text":"東京タワー #k:\#(index)#"}"#
                }
                try? child.write(lines.joined(separator: "\n") + "\n")
            }
            // Kill after the first ack of this cycle (or at once on every third cycle).
            let deadline = ContinuousClock.now + .seconds(10)
            var seen = 0
            while cycles % 3 != 0, seen < 1 + cycles % 5,
                let line = child.nextLine(seconds: Self.seconds(until: deadline))
            {
                let payload = try JSONReader.parse(line)["payload"]
                if let id = payload?["cmd_id"]?.stringValue, let status = payload?["status"]?.stringValue {
                    acked[id] = MemoAck.Status(rawValue: status)
                    seen += 1
                }
            }
            if cycles < 30 {
                child.signal(SIGKILL)
                try child.wait()
            } else {
                while acked.count < total, let line = child.nextLine(seconds: Self.seconds(until: deadline)) {
                    let payload = try JSONReader.parse(line)["payload"]
                    if let id = payload?["cmd_id"]?.stringValue, let status = payload?["status"]?.stringValue {
                        acked[id] = MemoAck.Status(rawValue: status)
                    }
                }
                try child.closeInput()
                #expect(try child.wait(seconds: 60) == 0)
            }
        }
        #expect(acked.count == total)
        #expect(acked.values.allSatisfy { $0 == .ok || $0 == .duplicate })
        let memos = try fixture.open().allMemos()
        #expect(memos.count == total)
        #expect(Set(memos.map(\.id)) == Set((0..<total).map { "k\($0)" }))
        #expect(try MemoCheck.run(path: fixture.path).isSound)
    }

    /// Seconds from now to `deadline`, 0 past it.
    private static func seconds(until deadline: ContinuousClock.Instant) -> Double {
        let left = ContinuousClock.now.duration(to: deadline)
        return max(0, Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18)
    }
}
