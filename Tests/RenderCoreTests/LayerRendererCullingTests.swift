import Testing

@testable import RenderCore

/// A board of many memos costs what is on screen: memos outside the clip are culled, offscreen
/// groups cover one memo, not the canvas, a second frame reuses the memos' text and a third
/// draws the kept groups without an offscreen buffer.
@Suite struct LayerRendererCullingTests {
    /// A 400×400 board (clipping) on a 600×600 canvas, holding a 20×20 grid of shadowed memos
    /// 200 points apart, from (20, 20): only the 2×2 at the board's corner reach it.
    static func board() -> Layer {
        var board = Layer(name: "board", frame: Rect(x: 0, y: 0, width: 400, height: 400))
        board.backgroundColor = Color(hex: 0xC8A165)
        board.masksToBounds = true
        for row in 0..<20 {
            for column in 0..<20 {
                var memo = Layer(
                    name: "m\(row)-\(column)",
                    frame: Rect(x: 20 + 200 * Double(column), y: 20 + 200 * Double(row), width: 100, height: 80))
                memo.backgroundColor = Color(hex: 0xFFF3A0)
                memo.shadow = Shadow(opacity: 0.35, offset: Size(0, 3), radius: 4)
                memo.transform = .rotation(0.05)
                memo.text = TextContent(string: "メモ \(row)-\(column)", fontSize: 15, inset: 8)
                board.sublayers.append(memo)
            }
        }
        var root = Layer(name: "root", frame: Rect(x: 0, y: 0, width: 600, height: 600))
        root.sublayers = [board]
        return root
    }

    @Test func memosOutsideTheBoardAreCulledAndGroupsCoverOneMemo() throws {
        let renderer = LayerRenderer(font: try FontFace.systemJapanese())
        let first = try renderer.render(Self.board(), width: 600, height: 600)
        let cold = renderer.lastStatistics
        #expect(cold.layersDrawn == 6, "root, board and 4 memos")
        #expect(cold.layersCulled == 396)
        #expect(cold.offscreenGroups == 4)
        // A memo of 100×80 points, turned a little, plus anti-aliasing: far below the canvas.
        #expect(cold.largestOffscreenPixels <= 110 * 95, "\(cold.largestOffscreenPixels) px")
        #expect(cold.textCacheMisses == 4)

        let second = try renderer.render(Self.board(), width: 600, height: 600)
        let kept = renderer.lastStatistics
        #expect(kept.textCacheHits == 4 && kept.textCacheMisses == 0)
        #expect(second == first, "cached text draws the same pixels")

        // Drawn the same way twice, the groups are now kept: the third frame draws none.
        let third = try renderer.render(Self.board(), width: 600, height: 600)
        let warm = renderer.lastStatistics
        #expect(warm.offscreenAllocations == 0 && warm.offscreenGroups == 0 && warm.groupCacheHits == 4)
        #expect(third == first, "kept groups draw the same pixels")
    }

    @Test func aMemoMovedByWholePixelsDrawsTheSameWithCachedText() throws {
        func memo(at x: Double) -> Layer {
            var memo = Layer(name: "memo", frame: Rect(x: x, y: 30.25, width: 120, height: 90))
            memo.backgroundColor = Color(hex: 0xFFF3A0)
            memo.transform = AffineTransform.scale(1.2, 1.2).concatenating(.rotation(0.3))
            memo.text = TextContent(string: "買い物 milk", fontSize: 15, inset: 8)
            var root = Layer(name: "root", frame: Rect(x: 0, y: 0, width: 300, height: 200))
            root.sublayers = [memo]
            return root
        }
        let font = try FontFace.systemJapanese()
        let warm = LayerRenderer(font: font)
        _ = try warm.render(memo(at: 20.5), width: 300, height: 200)
        let moved = try warm.render(memo(at: 57.5), width: 300, height: 200)
        #expect(warm.lastStatistics.textCacheHits == 1)
        let fresh = try LayerRenderer(font: font).render(memo(at: 57.5), width: 300, height: 200)
        let largest = zip(moved.bytes, fresh.bytes).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(largest <= 1, "cached text differs by \(largest) from text drawn afresh")
    }

    @Test func aLayerWhoseShadowAloneReachesTheCanvasIsDrawn() throws {
        var layer = Layer(name: "above", frame: Rect(x: 10, y: -40, width: 50, height: 38))
        layer.backgroundColor = .black
        layer.shadow = Shadow(opacity: 1, offset: Size(0, 10), radius: 4)
        var root = Layer(name: "root", frame: Rect(x: 0, y: 0, width: 100, height: 100))
        root.sublayers = [layer]
        let renderer = LayerRenderer()
        let image = try renderer.render(root, width: 100, height: 100)
        #expect(renderer.lastStatistics.layersCulled == 0)
        #expect(image.bytes[4 * (2 * 100 + 30) + 3] > 0, "the shadow shows below the canvas's top edge")
    }
}
