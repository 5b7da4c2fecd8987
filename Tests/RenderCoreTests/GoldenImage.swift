import Foundation
import Testing

@testable import RenderCore

/// Small committed frames in `Golden/` that drawings are compared with. Run the tests with
/// `UIBUS_UPDATE_GOLDENS=1` to write them afresh (then look at them before committing).
enum GoldenImage {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    /// Expects `image` to match `Golden/<name>.png`: the same size, fewer than 0.5 % of channel
    /// values off by more than 3 and none by more than 64 (font hinting and float summation
    /// move edges by a little, a wrong drawing moves much more).
    static func expectMatch(_ image: Image, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let url = directory.appendingPathComponent("\(name).png")
        if ProcessInfo.processInfo.environment["UIBUS_UPDATE_GOLDENS"] == "1" {
            try Data(try PNGCodec.encode(image)).write(to: url)
            return
        }
        let golden = try PNGCodec.decode([UInt8](try Data(contentsOf: url)))
        #expect(
            golden.width == image.width && golden.height == image.height, "\(name): size differs",
            sourceLocation: sourceLocation)
        let differences = zip(image.bytes, golden.bytes).map { abs(Int($0) - Int($1)) }
        let off = differences.filter { $0 > 3 }.count
        #expect(
            Double(off) / Double(max(differences.count, 1)) < 0.005,
            "\(name): \(off) channel values differ by more than 3", sourceLocation: sourceLocation)
        #expect(
            differences.max() ?? 0 <= 64, "\(name): a channel differs by more than 64", sourceLocation: sourceLocation)
    }
}
