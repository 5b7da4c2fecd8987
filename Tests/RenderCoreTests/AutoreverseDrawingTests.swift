import BusSchema
import Testing

@testable import RenderCore

/// SBAnimator's autoreverse and delay as frames: a slide row's front animated to its open
/// offset with `UIViewAnimationOptionAutoreverse` after a delay goes there and comes back,
/// then shows the model value.
@Suite struct AutoreverseDrawingTests {
    static let scene = try! JSONReader.parse(
        """
        {"width":200,"height":60,"background":"#ffffff","views":[{"id":"table","frame":{"x":0,"y":0,
         "width":200,"height":60},"component":{"kind":"slideTable","id":"t1","config":{"rows":1,"row_height":60}}}]}
        """)

    /// The scene's layers for the row's front at `offset`.
    static func root(offset: Double) throws -> Layer {
        let state = try JSONReader.parse(
            #"{"instance":"t1","t_ms":0,"rows":1,"open_row":0,"offsets":[\#(offset)],"scroll_offset":0}"#)
        let scene = try Scene(value: Self.scene)
        return SceneLayers.build(scene: scene, states: try TypedStates.decode(["t1": state], scene: scene)).root
    }

    /// The frame at `now` of a front slid from 0 to 150 at 0 ms over 100 ms after 50 ms, autoreversing.
    static func frame(atMs now: Double, animator: Animator) throws -> Image {
        var root = try Self.root(offset: 150)
        for index in root.sublayers[0].sublayers.indices {
            let layer = root.sublayers[0].sublayers[index]
            let values = animator.values(layer: "table/\(layer.name)", atMs: now)
            if !values.isEmpty { root.sublayers[0].sublayers[index] = layer.applying(values) }
        }
        return try LayerRenderer(font: try FontFace.systemJapanese()).render(root, width: 200, height: 60)
    }

    @Test func anAutoreversingDelayedSlideGoesOpenComesBackThenShowsTheModelValue() throws {
        var animator = Animator()
        _ = animator.handle(
            .targetReceived(layer: "table/front0", values: [.position: SIMD2(0, 0)], options: nil, atMs: 0))
        let options = Animator.Options(durationMs: 100, delayMs: 50, curve: .linear, autoreverses: true)
        _ = animator.handle(
            .targetReceived(layer: "table/front0", values: [.position: SIMD2(150, 0)], options: options, atMs: 0))
        let green = RGBA8(0x34, 0xC7, 0x59, 255)
        let white = RGBA8(255, 255, 255, 255)
        // In the delay the front still covers the buttons.
        #expect(try Self.frame(atMs: 40, animator: animator).pixel(40, 50) == white)
        // At the peak (150 ms) the buttons show under x 150.
        let peak = try Self.frame(atMs: 150, animator: animator)
        #expect(ComponentDrawingTests.near(peak.pixel(40, 50), green), "open at the peak")
        // On the way back (200 ms: half-way) the front's edge is at x 75.
        let back = try Self.frame(atMs: 200, animator: animator)
        try GoldenImage.expectMatch(back, "autoreverse-back")
        #expect(ComponentDrawingTests.near(back.pixel(40, 50), green), "left of the edge: buttons")
        #expect(back.pixel(110, 50) == white, "right of it: the front again, coming back")
        // Once back (250 ms) the model value shows, as UIKit's presentation does.
        _ = animator.handle(.frameStarted(atMs: 260))
        let red = RGBA8(0xFF, 0x3B, 0x30, 255)
        #expect(ComponentDrawingTests.near(try Self.frame(atMs: 260, animator: animator).pixel(110, 50), red))
    }
}
