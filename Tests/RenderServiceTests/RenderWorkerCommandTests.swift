import BusSchema
import BusTestSupport
import Foundation
import RenderCore
import Testing

/// The offline modes of the real `render-worker` binary: `blur`, `bench-blur`, `render` and
/// `demo`, their output, and bad input refused by name with no output file left behind.
@Suite struct RenderWorkerCommandTests {
    /// A scratch directory removed when the test ends.
    final class Scratch {
        let path = NSTemporaryDirectory() + "uibus-render-cli-\(UUID().uuidString)"

        init() throws { try FileManager.default.createDirectory(atPath: self.path, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(atPath: self.path) }

        func file(_ name: String) -> String { self.path + "/" + name }
        func exists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: self.file(name)) }

        /// Writes a test pattern PNG and returns its image.
        func pattern(_ name: String, width: Int = 96, height: Int = 64) throws -> Image {
            let image = try TestPattern.frame(width: width, height: height)
            try Data(try PNGCodec.encode(image)).write(to: URL(fileURLWithPath: self.file(name)))
            return image
        }
    }

    static func decode(_ path: String) throws -> Image {
        try PNGCodec.decode(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    @Test func blurWritesWhatTheKernelMakesOfTheInput() throws {
        let scratch = try Scratch()
        var expected = try scratch.pattern("in.png")
        try BlurKernel(threads: 1).apply(.gaussian(sigma: 4), to: &expected)
        let (status, _, stderr) = try ChildProcess.run(
            "render-worker", ["blur", scratch.file("in.png"), scratch.file("out.png"), "--sigma", "4"])
        #expect(status == 0, "\(stderr)")
        let output = try Self.decode(scratch.file("out.png"))
        // PNG carries straight alpha, so compare after the same round trip the input took.
        let roundTripped = try PNGCodec.decode(try PNGCodec.encode(expected))
        #expect(output.width == 96 && output.height == 64)
        #expect(output.bytes == roundTripped.bytes, "the file is the kernel's blur of the input")
    }

    @Test func aTruncatedPNGIsRefusedByItsPathAndNoOutputIsWritten() throws {
        let scratch = try Scratch()
        _ = try scratch.pattern("whole.png")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: scratch.file("whole.png")))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: scratch.file("cut.png")))
        let (status, _, stderr) = try ChildProcess.run(
            "render-worker", ["blur", scratch.file("cut.png"), scratch.file("out.png"), "--level", "weak"])
        #expect(status == 1)
        #expect(stderr.contains("render-worker:") && stderr.lowercased().contains("png"), "\(stderr)")
        #expect(!scratch.exists("out.png"), "no partial output")
        let (missing, _, missingError) = try ChildProcess.run(
            "render-worker", ["blur", scratch.file("absent.png"), scratch.file("out.png"), "--sigma", "2"])
        #expect(missing == 1)
        #expect(missingError.contains(scratch.file("absent.png")), "\(missingError)")
        #expect(!scratch.exists("out.png"))
    }

    @Test(arguments: ["-1", "nan", "inf", "x"])
    func aSigmaThatIsNotAFiniteNonNegativeNumberIsAUsageErrorNamingIt(sigma: String) throws {
        let scratch = try Scratch()
        _ = try scratch.pattern("in.png")
        let (status, _, stderr) = try ChildProcess.run(
            "render-worker", ["blur", scratch.file("in.png"), scratch.file("out.png"), "--sigma", sigma])
        #expect(status == 64)
        #expect(stderr.contains("--sigma") && stderr.contains("'\(sigma)'"), "\(stderr)")
        #expect(!scratch.exists("out.png"))
    }

    @Test func benchBlurPrintsItsJSONContractAndRefusesAZeroSize() throws {
        let (status, stdout, stderr) = try ChildProcess.run(
            "render-worker", ["bench-blur", "--width", "64", "--height", "48", "--sigma", "3", "--runs", "3"])
        #expect(status == 0, "\(stderr)")
        let result = try JSONReader.parse(stdout)
        #expect(result["width"]?.intValue == 64 && result["height"]?.intValue == 48)
        #expect(result["sigma"]?.doubleValue == 3 && result["runs"]?.intValue == 3)
        #expect((result["threads"]?.intValue ?? 0) >= 1)
        let median = try #require(result["median_ms"]?.doubleValue)
        let minimum = try #require(result["min_ms"]?.doubleValue)
        #expect(minimum > 0 && minimum <= median)
        let (zero, _, zeroError) = try ChildProcess.run(
            "render-worker", ["bench-blur", "--width", "0", "--height", "48", "--sigma", "3", "--runs", "3"])
        #expect(zero == 64)
        #expect(zeroError.contains("--width"), "\(zeroError)")
    }

    @Test func renderDrawsTheSceneAtItsScaledSize() throws {
        let scratch = try Scratch()
        let scene = ChildProcess.repositoryRoot + "/deploy/scenes/demo.json"
        let (status, _, stderr) = try ChildProcess.run(
            "render-worker", ["render", "--scene", scene, scratch.file("frame.png"), "--scale", "0.25"])
        #expect(status == 0, "\(stderr)")
        let image = try Self.decode(scratch.file("frame.png"))
        #expect(image.width == 400 && image.height == 250)
        #expect(Set(image.bytes).count > 16, "a drawn frame, not a blank one")
    }

    @Test func demoReportsTheColdFirstFrameApartFromTheWarmOnes() throws {
        let scratch = try Scratch()
        let (status, stdout, stderr) = try ChildProcess.run(
            "render-worker", ["demo", scratch.file("demo.png"), "--scale", "0.5", "--runs", "2", "--threads", "1"])
        #expect(status == 0, "\(stderr)")
        let result = try JSONReader.parse(stdout)
        let first = try #require(result["first_ms"]?.doubleValue)
        let median = try #require(result["median_ms"]?.doubleValue)
        #expect(first > 0 && median > 0)
        #expect(result["runs"]?.intValue == 2)
        #expect(Int64(try Self.decode(scratch.file("demo.png")).width) == result["width"]?.intValue)
    }
}
