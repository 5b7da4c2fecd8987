import Foundation
import Testing
import UIBusCodegen

@testable import BusSchema

/// The generated message types (`Sources/BusSchema/Generated/`) are what the schemas say.
@Suite struct GeneratedCodeTests {
    @Test func theCommittedGeneratedFilesAreWhatTheSchemasGenerate() throws {
        let generated = try Codegen.generate(schemasDirectory: RepositoryFiles.schemas)
        let directory = "\(RepositoryFiles.root)/\(Codegen.outputDirectory)"
        let committed = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".swift") }
        #expect(Set(committed) == Set(generated.keys), "run `swift run uibus-codegen`")
        for (name, text) in generated {
            let onDisk = FileManager.default.contents(atPath: "\(directory)/\(name)").map {
                String(decoding: $0, as: UTF8.self)
            }
            #expect(onDisk == text, "\(name) is stale: run `swift run uibus-codegen`")
        }
    }

    @Test func generationRefusesAComponentStateThatDeclaresACommonFieldOtherwiseAndNamesIt() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "codegen-\(UInt32.random(in: 0...UInt32.max))")
        defer { try? FileManager.default.removeItem(at: directory) }
        for (id, edit) in [
            ("state.drawer", { (text: String) in text }),
            ("state.pager", { $0.replacingOccurrences(of: "\"minLength\": 1", with: "\"minLength\": 2") }),
        ] {
            let text = try String(contentsOfFile: "\(RepositoryFiles.schemas)/\(id)/v1.json", encoding: .utf8)
            try FileManager.default.createDirectory(
                at: directory.appendingPathComponent(id), withIntermediateDirectories: true)
            try edit(text).write(
                to: directory.appendingPathComponent("\(id)/v1.json"), atomically: true, encoding: .utf8)
        }
        #expect {
            _ = try Codegen.generate(schemasDirectory: directory.path)
        } throws: { error in
            "\(error)".hasPrefix("state.pager/v1.json: 'instance' differs from its declaration in state.drawer/v1.json")
        }
    }

    @Test func everyStringPatternMatchesWhatItsRegularExpressionMatches() throws {
        var random = SplitMix64(seed: 22)
        let alphabet = Array("aAzZ09_#/.-fF g\u{7f}\u{1}é指".unicodeScalars)
        var samples = ["", "a", "#a0B1c2", "#a0B1c2d3", "#a0B1c", "0123abcd", "refresh_done", "9lives", "d0", "a/b"]
        for _ in 0..<3000 {
            let length = Int(random.next() % 12)
            let scalars = (0..<length).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }
            samples.append(String(String.UnicodeScalarView(scalars)))
        }
        samples.append(String(repeating: "a", count: 128))
        samples.append(String(repeating: "a", count: 129))
        for pattern in StringPattern.all {
            let regex = try Regex(pattern.pattern).matchingSemantics(.unicodeScalar)
            for sample in samples {
                #expect(pattern.matches(sample) == (sample.wholeMatch(of: regex) != nil), "\(pattern) on '\(sample)'")
            }
        }
    }

    @Test func aGeneratedDecoderRefusesAValueOutsideItsRangeAndNamesTheField() throws {
        let example = try #require(try RepositoryFiles.examples("state.drawer").first?.1)
        for (key, value, named) in [
            ("progress", Value.double(1.5), "progress"), ("progress", .double(.nan), "progress"),
            ("width", .int(-1), "width"), ("listening_direction", .string("up"), "listening_direction"),
            ("instance", .string(""), "instance"), ("open", .int(1), "open"),
        ] {
            var payload = try #require(example.mapValue)
            payload[key] = value
            #expect {
                _ = try DrawerState(messagePack: Value.map(payload).messagePack)
            } throws: { error in
                (error as? CodecError)?.context.hasPrefix(named) == true
            }
        }
        var nested = try #require(example.mapValue)
        nested["animation"] = .map(["duration_ms": .double(-.infinity)])
        #expect {
            _ = try DrawerState(messagePack: Value.map(nested).messagePack)
        } throws: { error in
            (error as? CodecError)?.context.hasPrefix("animation.duration_ms") == true
        }
    }

    @Test func aGeneratedDecoderNamesAMissingRequiredField() throws {
        var payload = try #require(try RepositoryFiles.examples("state.scrollView").first?.1.mapValue)
        payload["offset"] = .map(["x": .int(0)])
        #expect {
            _ = try ScrollViewState(messagePack: Value.map(payload).messagePack)
        } throws: { error in
            (error as? CodecError).map { $0.code == .missingField && $0.context == "offset.y" } == true
        }
    }
}

/// The touch frame's and gesture event's hand-tuned codecs against the generated reference
/// (mutated input: the `fastpath.*` fuzz targets).
@Suite struct FastPathReferenceTests {
    static func reference<M: BusMessage>(
        _ bytes: [UInt8], _ decode: (inout MessagePackReader) throws -> M
    ) throws -> M {
        try bytes.withUnsafeBytes { raw in
            var reader = MessagePackReader(raw)
            let message = try decode(&reader)
            try reader.expectEnd()
            return message
        }
    }

    @Test func theTouchFramesFastPathsAgreeWithTheGeneratedCodecOnEveryExample() throws {
        for (name, example) in try RepositoryFiles.examples("touch.frame") {
            let reference = try Self.reference(example.messagePack) { try TouchFrame(from: &$0, path: "") }
            #expect(try TouchFrame(messagePack: example.messagePack) == reference, "\(name)")
            var writer = MessagePackWriter()
            reference.encodeReference(to: &writer)
            #expect(try TouchFrame(messagePack: writer.bytes) == reference, "\(name)")
            let fast = reference.messagePack
            #expect(try Self.reference(fast) { try TouchFrame(from: &$0, path: "") } == reference, "\(name)")
            var scanned = TouchFrame.empty
            let tookFastPath = fast.withUnsafeBytes { raw in
                var reader = MessagePackReader(raw)
                return reader.scan { scanned.decode(scanning: &$0) }
            }
            #expect(tookFastPath && scanned == reference, "\(name)")
        }
    }

    @Test func theGestureEventsFastPathAgreesWithTheGeneratedCodecOnEveryExample() throws {
        for (name, example) in try RepositoryFiles.examples("gesture.event") {
            let reference = try Self.reference(example.messagePack) { try GestureEvent(from: &$0, path: "") }
            #expect(try GestureEvent(messagePack: example.messagePack) == reference, "\(name)")
            var scanned = GestureEvent.empty
            let tookFastPath = reference.messagePack.withUnsafeBytes { raw in
                var reader = MessagePackReader(raw)
                return reader.scan { scanned.decode(scanning: &$0) }
            }
            #expect(tookFastPath && scanned == reference, "\(name)")
        }
    }
}
