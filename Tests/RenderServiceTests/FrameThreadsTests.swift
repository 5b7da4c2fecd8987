import BusSchema
import Foundation
import RenderCore
import RenderService
import Testing

/// Rendering runs large fills, coverage masks and group composites in row bands on the blur
/// kernel's threads, and keeps groups, shadows and text across frames: neither may change a
/// byte of the frame.
@Suite struct FrameThreadsTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The live worker's frame for the demo scene, its board holding `memos` memos.
    static func liveDemo(memos: Int) throws -> (size: Size, root: Layer) {
        let text = try String(
            contentsOf: repository.appendingPathComponent("deploy/scenes/demo.json"), encoding: .utf8)
        var scene = RenderScene(scene: try Scene(value: try JSONReader.parse(text)))
        for change in BoardFixture.changes(count: memos) { try scene.applyMemoChange(change) }
        return try #require(try scene.layers(atMs: 0))
    }

    /// The checksums of three frames on `threads` threads: cold, then groups kept, then drawn
    /// from the caches alone.
    static func frames(_ root: Layer, width: Int, height: Int, scale: Double, threads: Int) throws -> [String] {
        let renderer = LayerRenderer(blur: BlurKernel(threads: threads), font: try FontFace.systemJapanese())
        return try (0..<3).map { _ in
            try renderer.render(root, width: width, height: height, scale: scale).checksum
        }
    }

    /// At half scale (800×500) to keep the debug build's test short; every component, the
    /// shadows, the caption's region blur and the memos' groups are still drawn.
    @Test(arguments: [0, 900])
    func theLiveDemoFrameIsTheSameOnOneTwoAndSevenThreadsColdOrWarm(memos: Int) throws {
        let (size, root) = try Self.liveDemo(memos: memos)
        let (width, height) = (Int(size.width / 2), Int(size.height / 2))
        let reference = try Self.frames(root, width: width, height: height, scale: 0.5, threads: 1)
        #expect(Set(reference).count == 1, "warm frames draw the cold frame's bytes")
        for threads in [2, 7] {
            let frames = try Self.frames(root, width: width, height: height, scale: 0.5, threads: threads)
            #expect(frames == reference, "\(threads) threads")
        }
    }

    /// At 2× (640×480), as `benchmarks/render/run` draws it.
    @Test func theGoldenDemoFrameIsTheSameOnOneTwoAndSevenThreadsColdOrWarm() throws {
        let (width, height) = (Int(DemoScene.size.width * 2), Int(DemoScene.size.height * 2))
        let reference = try Self.frames(DemoScene.root(), width: width, height: height, scale: 2, threads: 1)
        #expect(Set(reference).count == 1, "warm frames draw the cold frame's bytes")
        for threads in [2, 7] {
            let frames = try Self.frames(DemoScene.root(), width: width, height: height, scale: 2, threads: threads)
            #expect(frames == reference, "\(threads) threads")
        }
    }
}
