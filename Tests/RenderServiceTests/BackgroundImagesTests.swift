import BusTestSupport
import Foundation
import Glibc
import RenderCore
import Testing

@testable import RenderService

/// Background image paths checked where the render worker reads them: a good PNG is kept, any
/// other path fails once with a reason naming it.
@Suite struct BackgroundImagesTests {
    static func directory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bg-\(UUID().uuidString.prefix(8))")
            .path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func writePNG(_ width: Int, _ height: Int, to path: String) throws {
        let image = try Image(width: width, height: height, fill: RGBA8(10, 200, 30, 255))
        try Data(try PNGCodec.encode(image)).write(to: URL(fileURLWithPath: path))
    }

    @Test func aPNGOnDiskIsReadOnceAndKept() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Self.writePNG(3, 2, to: directory + "/board.png")
        var images = BackgroundImages()
        #expect(images.load([directory + "/board.png"]).isEmpty)
        let image = try #require(images.images[directory + "/board.png"]).image
        #expect(image.width == 3 && image.pixel(1, 1) == RGBA8(10, 200, 30, 255))
        try FileManager.default.removeItem(atPath: directory + "/board.png")
        #expect(images.load([directory + "/board.png"]).isEmpty, "kept, not read again")
        #expect(images.images.count == 1)
    }

    @Test func everyUnusablePathFailsOnceWithAReasonNamingIt() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Self.writePNG(BackgroundImages.maxSide + 1, 1, to: directory + "/wide.png")
        try Data("not a png at all, just text".utf8).write(to: URL(fileURLWithPath: directory + "/text.png"))
        var truncated = try PNGCodec.encode(try Image(width: 64, height: 64, fill: RGBA8(1, 2, 3, 255)))
        truncated.removeLast(truncated.count / 2)
        try Data(truncated).write(to: URL(fileURLWithPath: directory + "/cut.png"))
        #expect(mkfifo(directory + "/pipe.png", 0o600) == 0)
        try FileManager.default.createDirectory(atPath: directory + "/folder.png", withIntermediateDirectories: true)
        let expected = [
            directory + "/missing.png": "No such file", directory + "/wide.png": "4097×1 pixels, above 4096 a side",
            directory + "/text.png": "not a PNG", directory + "/cut.png": "bad_png",
            directory + "/pipe.png": "not a regular file", directory + "/folder.png": "not a regular file",
            directory + "/photo.jpg": "only PNG images", "": "1…4096 bytes",
        ]
        var images = BackgroundImages()
        let failures = images.load(Set(expected.keys))
        #expect(failures.count == expected.count)
        for failure in failures {
            let reason = try #require(expected[failure.path])
            #expect(failure.reason.contains(reason), "\(failure)")
            #expect(failure.description.hasPrefix("background image \(failure.path): "))
        }
        #expect(images.images.isEmpty)
        #expect(images.load(Set(expected.keys)).isEmpty, "each reported once")
        // A path that left the boards and came back is tried again.
        _ = images.load([])
        #expect(images.load([directory + "/missing.png"]).count == 1)
    }
}
