import BusSchema
import Testing

@testable import RenderCore

/// Drawing only the damage between two layer trees over the frame before gives the frame a
/// whole redraw gives, byte for byte, through sequences of states like the live view's drags;
/// the rectangles it reports hold every pixel that changed.
@Suite struct DamageRedrawTests {
    /// The layers of a 200×200 scene with one component `kind` (instance `c1`) in `state`.
    static func root(_ kind: String, config: String, state: String, width: Int = 200, height: Int = 200) throws
        -> Layer
    {
        let scene = """
            {"width":\(width),"height":\(height),"background":"#ffffff","views":[{"id":"v","frame":{"x":0,"y":0,
             "width":\(width),"height":\(height)},"component":{"kind":"\(kind)","id":"c1","config":\(config)}}]}
            """
        let typed = try Scene(json: scene)
        return SceneLayers.build(
            scene: typed, states: try TypedStates.decode(["c1": try JSONReader.parse(state)], scene: typed)
        ).1
    }

    /// Draws `roots` in turn, each over the one before within the damage, and checks every
    /// frame against a whole redraw by a renderer of its own, and that every pixel differing
    /// from the frame before lies in the rectangles reported changed; returns the damaged
    /// pixels per step.
    @discardableResult
    static func expectSameAsWholeRedraw(
        _ roots: [Layer], width: Int, height: Int, scale: Double = 1, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [Int] {
        let font = try FontFace.systemJapanese()
        let (partial, whole) = (LayerRenderer(font: font), LayerRenderer(font: font))
        var frame = try partial.render(roots[0], width: width, height: height, scale: scale)
        var damaged: [Int] = []
        for (step, (before, after)) in zip(roots, roots.dropFirst()).enumerated() {
            let damage = try #require(
                LayerRenderer.damage(from: before, to: after, width: width, height: height, scale: scale),
                "step \(step + 1) bounded", sourceLocation: sourceLocation)
            let before = frame
            let changed = try partial.render(
                after, width: width, height: height, scale: scale, over: &frame, damage: damage)
            let expected = try whole.render(after, width: width, height: height, scale: scale)
            let differing = zip(frame.bytes, expected.bytes).filter { $0 != $1 }.count
            #expect(differing == 0, "step \(step + 1): \(differing) bytes differ", sourceLocation: sourceLocation)
            let unreported = (0..<(width * height)).filter { index in
                let (x, y) = (index % width, index / width)
                return before.pixel(x, y) != frame.pixel(x, y)
                    && !changed.contains { $0.covers(PixelRect(x: x, y: y, width: 1, height: 1)) }
            }
            #expect(
                unreported.isEmpty, "step \(step + 1): \(unreported.count) pixels changed outside \(changed)",
                sourceLocation: sourceLocation)
            #expect(
                changed.allSatisfy { rect in damage.contains { $0.covers(rect) } },
                "step \(step + 1): within the damage",
                sourceLocation: sourceLocation)
            damaged.append(damage.reduce(0) { $0 + $1.width * $1.height })
        }
        #expect(damaged.contains { $0 < width * height }, "some step redraws less than the frame: \(damaged)")
        return damaged
    }

    @Test func aPullToRefreshDragRedrawnInItsDamageIsTheWholeRedraw() throws {
        let steps: [(String, Double, String, Double)] = [
            ("hidden", 0, "Pull to refresh", 0), ("pullingDown", 13.37, "Pull to refresh", 0.4),
            ("pullingDown", 47.91, "Pull to refresh", 1.7), ("overThreshold", 86.25, "Release to refresh", 3.14159),
            ("overThreshold", 93.6, "Release to refresh", 3.14159), ("refreshing", 60, "Loading…", 0),
            ("hidden", 0, "Pull to refresh", 0),
        ]
        let roots = try steps.map { phase, offset, label, angle in
            try PullToRefreshDrawingTests.root(
                header: PullToRefreshDrawingTests.header(phase: phase, offset: offset, label: label, angle: angle))
        }
        try Self.expectSameAsWholeRedraw(roots, width: 200, height: 200)
    }

    @Test func aPagerSwipeRedrawnInItsDamageIsTheWholeRedraw() throws {
        let roots = try [0, -17.25, -61.7, -123.45, -199.9, -200, -140.3, 0].map { offset in
            try Self.root(
                "pager", config: "{\"page_count\":3,\"nav_height\":60,\"menu_height\":40}",
                state: """
                    {"instance":"c1","t_ms":0,"page":0,"page_count":3,"header_offset":0,"progress":0,"loading":false,
                     "page_offset":\(offset),"pull_offset":0,"scroll_offset":0,"label":""}
                    """)
        }
        try Self.expectSameAsWholeRedraw(roots, width: 200, height: 200)
    }

    @Test func aMemoDragRedrawnInItsDamageIsTheWholeRedrawAndDamagesLessThanTheFrame() throws {
        let positions: [(Double, Double)] = [(20, 150), (23.4, 141.9), (41.75, 120.2), (88.1, 77.7), (109.5, 61)]
        let roots = try positions.map { x, y in
            try Self.root(
                "memoBoard", config: #"{"client":"b1"}"#,
                state: MemoBoardDrawingTests.board("").replacingOccurrences(
                    of: #""x":20,"y":150"#, with: #""x":\#(x),"y":\#(y)"#
                ).replacingOccurrences(of: #""instance":"b1""#, with: #""instance":"c1""#),
                width: 240, height: 240)
        }
        let damaged = try Self.expectSameAsWholeRedraw(roots, width: 480, height: 480, scale: 2)
        #expect(damaged.allSatisfy { $0 > 0 && $0 < 480 * 480 / 2 }, "\(damaged)")
    }

    /// The demo frame's shadowed card, region blur and rotated memo moving, at scale 2: the
    /// damage must reach as far as the shadows' blur and take in the blur's whole region.
    @Test func shadowsAndABlurMovingRedrawnInTheirDamageAreTheWholeRedraw() throws {
        let moves: [(card: Double, blur: Double, angle: Double)] = [
            (0, 0, 0), (3.3, 0, 0), (17.9, -4.2, 0), (17.9, -30.6, 0.2), (-11.1, -30.6, 0.35), (-11.1, 12.5, 0.35),
        ]
        let roots = moves.map { move in
            var root = DemoScene.root()
            for index in root.sublayers.indices {
                switch root.sublayers[index].name {
                case "card": root.sublayers[index].frame.origin.y += move.card
                case "regionBlur": root.sublayers[index].frame.origin.x += move.blur
                case "memo": root.sublayers[index].transform = .rotation(move.angle)
                default: break
                }
            }
            return root
        }
        #expect(Set(roots).count == roots.count, "every step changes something")
        let damaged = try Self.expectSameAsWholeRedraw(roots, width: 640, height: 480, scale: 2)
        #expect(damaged.contains { $0 < 640 * 480 / 2 }, "\(damaged)")
    }

    @Test func equalTreesHaveNoDamageAndMergedRectanglesDoNotOverlap() {
        let root = DemoScene.root()
        #expect(LayerRenderer.damage(from: root, to: root, width: 320, height: 240, scale: 1) == [])
        let merged = PixelRect.merged(
            [
                PixelRect(x: 0, y: 0, width: 10, height: 10), PixelRect(x: 50, y: 50, width: 10, height: 10),
                PixelRect(x: 5, y: 5, width: 50, height: 50),
            ], maximumCount: 8)
        #expect(merged == [PixelRect(x: 0, y: 0, width: 60, height: 60)])
        let apart = PixelRect.merged(
            [PixelRect(x: 0, y: 0, width: 10, height: 10), PixelRect(x: 20, y: 0, width: 10, height: 10)],
            maximumCount: 1)
        #expect(apart == [PixelRect(x: 0, y: 0, width: 30, height: 10)])
    }

    @Test func clusteredRectanglesEachHoldSomeWholeJoiningNeighboursBeforeDistantOnes() {
        // A pull's column of tiles on the left, a pager's strips on the right, far apart.
        let column = (0..<6).map { PixelRect(x: 300, y: 100 + $0 * 10, width: 380, height: 880 - $0 * 10) }
        let strips = (0..<6).map { PixelRect(x: 700 + $0 * 40, y: 105, width: 400 - $0 * 40, height: 395) }
        let header = PixelRect(x: 300, y: 0, width: 125, height: 30)
        let rects = column + strips + [header]
        let boxes = PixelRect.clustered(rects, maximumCount: 4)
        #expect(boxes.count <= 4)
        #expect(rects.allSatisfy { rect in boxes.contains { $0.covers(rect) } }, "each held whole by one")
        #expect(!boxes.contains { $0.covers(column[0]) && $0.covers(strips[0]) }, "the two regions apart")
        let pixels = boxes.reduce(0) { $0 + $1.width * $1.height }
        #expect(pixels < 1600 * 1000 / 2, "under half the frame, where one box over both is not: \(boxes)")
        #expect(PixelRect.clustered(rects, maximumCount: 1).count == 1)
    }
}
