import FuzzSupport
import Testing

/// Every input the fuzzers found crashing or hanging (or taking seconds in) a decoder, minimised, under
/// `Tests/data/fuzz/<target>/`: each now gets a clear error.
@Suite struct FuzzRegressionTests {
    static let findings: [(target: String, file: String, outcome: String)] = [
        ("touch.script", "t-ms-beyond-int64-ns.jsonl", "out_of_range"),
        ("evemu", "axis-line-missing-flat.events", "malformed"),
        ("png", "chunk-length-beyond-data.png", "bad_png"),
        ("scene", "slide-table-rows-beyond-memory.json", "bounds"),
        ("scene", "memo-retry-every-zero-ms.json", "minimum"),
        // Drags and touches with NaN, ±∞ or 1e308 that left a machine NaN (and the next drag trapping).
        ("machine.scrollView", "nan-drag-then-drag.msgpack", "invalid_value"),
        ("machine.scrollView", "1e308-drag-then-drag.msgpack", "invalid_value"),
        ("machine.pager", "infinite-drag-then-drag.msgpack", "invalid_value"),
        ("machine.canvas", "nan-stroke-then-stroke.msgpack", "invalid_value"),
        ("machine.gestures", "infinite-and-nan-touch.msgpack", "invalid_value"),
    ]

    @Test(arguments: findings.indices)
    func findingIsRejectedWithAClearError(_ index: Int) throws {
        let finding = Self.findings[index]
        let harness = try #require(FuzzTarget.named(finding.target)).load(repository)
        let input = try repository.bytes("Tests/data/fuzz/\(finding.target)/\(finding.file)")
        #expect(harness.run(harness.prepare(input)) == finding.outcome)
    }

    @Test func everyCommittedFindingIsListed() throws {
        let listed = Set(Self.findings.map { "Tests/data/fuzz/\($0.target)/\($0.file)" })
        let committed = FuzzTarget.all.flatMap { target in
            (try? repository.files(in: "Tests/data/fuzz/\(target.name)", suffix: "")) ?? []
        }
        #expect(Set(committed) == listed)
    }
}
