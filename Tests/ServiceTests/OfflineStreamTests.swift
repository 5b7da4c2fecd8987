import BusSchema
import BusTestSupport
import Foundation
import Glibc
import InputCore
import InputService
import ServiceSupport
import Testing

/// Offline tools stream: a line at a time with a per-line limit, output as it is made, and a
/// reader that goes away (`| head -1`) is a normal end.
@Suite struct OfflineStreamTests {
    final class Scratch {
        let path = NSTemporaryDirectory() + "uibus-stream-\(UUID().uuidString)"
        init() throws { try FileManager.default.createDirectory(atPath: self.path, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(atPath: self.path) }
        func file(_ name: String) -> String { self.path + "/" + name }
    }

    static func lines(_ path: String, maxLineBytes: Int) throws -> [LineReader.Line] {
        var reader = try LineReader(path: path, maxLineBytes: maxLineBytes)
        var lines: [LineReader.Line] = []
        while let line = try reader.next() { lines.append(line) }
        return lines
    }

    @Test func aLineOverTheLimit_isReportedByNumberAndSkippedWithoutBeingKept() throws {
        let scratch = try Scratch()
        // The long line spans several reads; the lines around it arrive whole.
        let long = String(repeating: "x", count: 3 * LineReader.chunkBytes)
        try "first\n\(long)\nthird\r\n\nlast".write(toFile: scratch.file("in.txt"), atomically: true, encoding: .utf8)
        let lines = try Self.lines(scratch.file("in.txt"), maxLineBytes: 1000)
        #expect(
            lines == [
                .text("first", number: 1), .tooLong(number: 2), .text("third\r", number: 3), .text("", number: 4),
                .text("last", number: 5),
            ])
        let exact = try Self.lines(scratch.file("in.txt"), maxLineBytes: long.utf8.count)
        #expect(exact[1] == .text(long, number: 2))
    }

    @Test func anEmptyFileHasNoLines_andAFinalNewlineEndsTheLastLine() throws {
        let scratch = try Scratch()
        try "".write(toFile: scratch.file("empty"), atomically: true, encoding: .utf8)
        #expect(try Self.lines(scratch.file("empty"), maxLineBytes: 10).isEmpty)
        try "a\n".write(toFile: scratch.file("one"), atomically: true, encoding: .utf8)
        #expect(try Self.lines(scratch.file("one"), maxLineBytes: 10) == [.text("a", number: 1)])
    }

    @Test func aBatchIsTheLinesThatArrivedTogether_andWaitsOnlyForTheFirst() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[1]) }
        func send(_ text: String) {
            _ = text.utf8CString.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count - 1) }
        }
        var reader = LineReader(descriptor: ends[0])
        defer { close(ends[0]) }
        send("a\nb\npartial")
        // A batch that waited for more than the complete lines would block here forever.
        #expect(try reader.nextBatch() == [.text("a", number: 1), .text("b", number: 2)])
        send(" line\nc\n")
        #expect(try reader.nextBatch() == [.text("partial line", number: 3), .text("c", number: 4)])
        close(ends[1])
        ends[1] = -1
        #expect(try reader.nextBatch() == nil)
    }

    @Test func aMissingFile_isAConfigurationErrorNamingIt() {
        #expect(throws: ConfigurationError.self) { _ = try LineReader(path: "/nonexistent/uibus/in.jsonl") }
    }

    @Test func theStreamGivesTheSameFramesAsTheWholeTextConversion() throws {
        let text = try String(
            contentsOfFile: ChildProcess.repositoryRoot + "/Tests/data/scripts/pinch-out.jsonl", encoding: .utf8)
        var stream = TouchScriptStream(bounds: nil)
        var frames: [TouchFrame] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            frames += stream.add(String(line), lineNumber: index + 1).frames
        }
        frames += stream.finish()
        #expect(frames == OfflineConversion.frames(script: text).frames)
        #expect(!frames.isEmpty)
    }

    /// A touch script of `count` taps, one line per contact change.
    static func taps(_ count: Int) -> String {
        var text = ""
        for index in 0..<count {
            let t = index * 100
            text += #"{"t_ms": \#(t), "device": "d0", "id": 0, "phase": "began", "x": 10, "y": 10}"# + "\n"
            text += #"{"t_ms": \#(t + 50), "device": "d0", "id": 0, "phase": "ended", "x": 10, "y": 10}"# + "\n"
        }
        return text
    }

    @Test(arguments: [
        ["input-source", "convert"], ["gesture-recognizer", "replay", "--touches"],
    ])
    func aReaderThatStopsAfterOneLine_endsTheToolQuietly(_ command: [String]) throws {
        let scratch = try Scratch()
        try Self.taps(20_000).write(toFile: scratch.file("big.jsonl"), atomically: true, encoding: .utf8)
        let tool = "\(ChildProcess.binDirectory)/\(command[0])"
        let arguments = command.dropFirst().map { "'\($0)'" }.joined(separator: " ")
        // The tool's status is what the pipeline reports (pipefail): 0, no signal, no message.
        let script =
            "set -o pipefail; '\(tool)' \(arguments) '\(scratch.file("big.jsonl"))' 2>'\(scratch.file("err"))' | head -1"
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/bash")
        shell.arguments = ["-c", script]
        let output = Pipe()
        shell.standardOutput = output
        try shell.run()
        let stdout = output.fileHandleForReading.readDataToEndOfFile()
        shell.waitUntilExit()
        #expect(shell.terminationStatus == 0)
        #expect(stdout.split(separator: UInt8(ascii: "\n")).count == 1)
        #expect(try String(contentsOfFile: scratch.file("err"), encoding: .utf8).isEmpty)
    }

    /// The live source's evemu stream gives the frames the whole-text parse and decoder give,
    /// `.desc` included, and the same frames again on every pass of a loop.
    @Test(arguments: ["EP0430M09.4-finger-drag-down", "Atmel_maXTouch_Touchscreen.1-finger-fast-taps"])
    func aStreamedRecordingGivesTheFramesOfTheWholeText(name: String) throws {
        let directory = ChildProcess.repositoryRoot + "/Tests/data/evemu/"
        let events = directory + name + ".events"
        let descPath = directory + name.prefix { $0 != "." } + ".desc"
        let desc = EvemuRecording.parse(try String(contentsOfFile: descPath, encoding: .utf8)).description
        var whole = EvemuRecording.parse(try String(contentsOfFile: events, encoding: .utf8), description: desc)
        if !whole.hasDescription { whole.description = desc }
        var decoder = MultitouchDecoder(
            device: "d0", description: whole.description,
            mapper: CoordinateMapper(description: whole.description, sceneWidth: 800, sceneHeight: 600))
        let expected = whole.events.compactMap { decoder.handle(.eventRead($0)) }
        let file = try FileFrames(
            path: events, kind: .evemu(device: "d0", desc: desc, sceneWidth: 800, sceneHeight: 600))
        #expect(Array(file.frames(loop: false)) == expected)
        #expect(!expected.isEmpty)
        let looped = Array(file.frames(loop: true).prefix(2 * expected.count))
        #expect(looped.suffix(expected.count).map(\.contacts) == expected.map(\.contacts))
        #expect(file.failure == nil)
    }

    @Test func aScriptRenamedWithASecondDeviceFailsNamingBoth() throws {
        let scratch = try Scratch()
        let script = """
            {"t_ms": 0, "device": "a", "id": 0, "phase": "began", "x": 1, "y": 1}
            {"t_ms": 10, "device": "b", "id": 0, "phase": "began", "x": 1, "y": 1}
            {"t_ms": 20, "device": "a", "id": 0, "phase": "ended", "x": 1, "y": 1}
            """
        try script.write(toFile: scratch.file("two.jsonl"), atomically: true, encoding: .utf8)
        let file = try FileFrames(path: scratch.file("two.jsonl"), kind: .script(bounds: nil), rename: "sc")
        let frames = Array(file.frames(loop: false))
        #expect(frames.map(\.device) == ["sc"], "the frames before the second device, renamed")
        #expect(file.failure?.description.contains("has a and b") == true, "\(String(describing: file.failure))")
    }
}
