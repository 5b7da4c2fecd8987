import Foundation
import FuzzSupport
import Testing

/// The repository the tests run in, found from this file's path.
let repository: RepositoryData = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return RepositoryData(root: url.path)
}()

/// The mutation loop in CI: fewer inputs than `Tests/fuzz/run` (a million per decoder), same seed
/// scheme, so a failure here reproduces with `uibus-fuzz input TARGET INDEX --seed 8`.
@Suite struct FuzzLoopTests {
    static let inputsPerTarget = ProcessInfo.processInfo.environment["UIBUS_FUZZ_INPUTS"].flatMap { Int($0) } ?? 5000

    @Test(arguments: FuzzTarget.all.map(\.name))
    func decoderSurvivesMutatedAndRandomInput(_ name: String) throws {
        let harness = try #require(FuzzTarget.named(name)).load(repository)
        #expect(!harness.seeds.isEmpty)
        let report = FuzzLoop.run(harness, target: name, seed: 8, count: Self.inputsPerTarget)
        #expect(report.inputs == Self.inputsPerTarget)
        // The seeds are valid inputs, and mutation must reach the decoder's error paths.
        #expect(report.accepted > 0)
        #expect(report.rejected.values.reduce(0, +) > 0)
    }

    @Test func inputsDependOnlyOnSeedAndIndex() throws {
        let harness = try #require(FuzzTarget.named("envelope")).load(repository)
        let first = (0..<200).map { harness.mutator(seed: 3).input($0) }
        let again = (0..<200).reversed().map { harness.mutator(seed: 3).input($0) }.reversed()
        #expect(first == Array(again))
        #expect(first != (0..<200).map { harness.mutator(seed: 4).input($0) })
    }

    @Test func mutatedInputsStayUnderTheTargetsLimit() throws {
        let harness = try #require(FuzzTarget.named("evdev")).load(repository)
        let mutator = harness.mutator(seed: 1)
        #expect((0..<2000).allSatisfy { mutator.input($0).count <= mutator.maximumLength })
    }

    @Test func pngRepairLeavesValidCRCsAlone() throws {
        let harness = try #require(FuzzTarget.named("png")).load(repository)
        for seed in harness.seeds {
            #expect(harness.prepare(seed) == seed)
            #expect(harness.run(seed) == nil)
        }
    }

    @Test func pngRepairFixesTheCRCOfAMutatedChunk() throws {
        let harness = try #require(FuzzTarget.named("png")).load(repository)
        var png = try #require(harness.seeds.first)
        // The first pixel of a 1×1 image: IDAT's compressed data changes, its CRC no longer matches.
        let idat = try #require(png.indices.first { png[$0..<min($0 + 4, png.count)].elementsEqual("IDAT".utf8) })
        png[idat + 6] ^= 0x01
        #expect(harness.run(png) == "bad_png")
        #expect(harness.prepare(png) != png)
    }
}
