import Synchronization
import Testing

@testable import RenderCore

/// Groups drawn the same way in two frames are kept, shadows are kept by shape and σ, and a
/// fill skips what the layer drawn next replaces: all of it draws the pixels a fresh renderer
/// draws.
@Suite struct LayerRendererCacheTests {
    /// A turned, shadowed memo (an offscreen group with a shadow from its alpha) on a board.
    /// The board's right edge falls mid-pixel (180.5), so a memo across it is cut by its clip.
    static func board(text: String = "メモ cache", angle: Double = 0.1, x: Double = 40) -> Layer {
        var memo = Layer(name: "memo", frame: Rect(x: x, y: 30, width: 100, height: 80))
        memo.backgroundColor = Color(hex: 0xFFF3A0)
        memo.cornerRadius = 2
        memo.borderWidth = 0.5
        memo.borderColor = Color(hex: 0x000000, alpha: 0.15)
        memo.shadow = Shadow(opacity: 0.35, offset: Size(0, 3), radius: 4)
        memo.transform = .rotation(angle)
        memo.text = TextContent(string: text, fontSize: 15, inset: 8)
        var board = Layer(name: "board", frame: Rect(x: 0, y: 0, width: 180.5, height: 160))
        board.backgroundColor = Color(hex: 0xC8A165)
        board.masksToBounds = true
        board.sublayers = [memo]
        return board
    }

    static func render(_ renderer: LayerRenderer, _ root: Layer) throws -> Image {
        try renderer.render(root, width: 200, height: 160)
    }

    @Test func anUnchangedGroupIsKeptFromTheThirdFrameAndDrawsWhatAFreshRendererDraws() throws {
        let font = try FontFace.systemJapanese()
        let renderer = LayerRenderer(font: font)
        let frames = try (0..<3).map { _ in try Self.render(renderer, Self.board()) }
        #expect(renderer.lastStatistics.groupCacheHits == 1)
        #expect(renderer.lastStatistics.shadowCacheHits == 1)
        #expect(renderer.lastStatistics.offscreenGroups == 0, "no group drawn offscreen")
        #expect(frames[1] == frames[0] && frames[2] == frames[0])
        #expect(try Self.render(LayerRenderer(font: font), Self.board()) == frames[2])
    }

    @Test func aGroupTakenFromTheCacheCountsAsOneLayerDrawnItsSublayersNone() throws {
        var root = Self.board()
        var pin = Layer(name: "pin", frame: Rect(x: 45, y: 4, width: 10, height: 10))
        pin.backgroundColor = Color(hex: 0xD03030)
        root.sublayers[0].sublayers = [pin]
        let renderer = LayerRenderer(font: try FontFace.systemJapanese())
        var drawn: [Int] = []
        for _ in 0..<3 {
            _ = try Self.render(renderer, root)
            drawn.append(renderer.lastStatistics.layersDrawn)
        }
        #expect(drawn == [3, 3, 2], "board, memo and pin; then board and the kept memo")
        #expect(renderer.lastStatistics.groupCacheHits == 1)
    }

    @Test func aFadingGroupKeepsItsImageAndDrawsWhatAFreshRendererDraws() throws {
        let font = try FontFace.systemJapanese()
        let renderer = LayerRenderer(font: font)
        func faded(_ opacity: Double) -> Layer {
            var board = Self.board()
            board.sublayers[0].opacity = opacity
            return board
        }
        for _ in 0..<2 { _ = try Self.render(renderer, faded(1)) }
        for opacity in [0.8, 0.5, 0.2] {
            let frame = try Self.render(renderer, faded(opacity))
            #expect(renderer.lastStatistics.groupCacheHits == 1, "opacity \(opacity)")
            #expect(frame == (try Self.render(LayerRenderer(font: font), faded(opacity))))
        }
    }

    @Test func aChangedLayerIsDrawnAfresh() throws {
        let font = try FontFace.systemJapanese()
        let renderer = LayerRenderer(font: font)
        for _ in 0..<3 { _ = try Self.render(renderer, Self.board()) }
        let changed = try Self.render(renderer, Self.board(text: "別のメモ"))
        #expect(renderer.lastStatistics.groupCacheHits == 0)
        #expect(changed == (try Self.render(LayerRenderer(font: font), Self.board(text: "別のメモ"))))
    }

    @Test func shadowsThatChangeEveryFrameStayWithinTheCachesByteLimit() throws {
        let renderer = LayerRenderer(font: try FontFace.systemJapanese())
        renderer.caches.withLock { $0.shadows.byteLimit = 60_000 }
        for width in stride(from: 60.0, to: 110, by: 5) {
            var card = Layer(name: "card", frame: Rect(x: 20, y: 20, width: width, height: 60))
            card.backgroundColor = .white
            card.shadow = Shadow(opacity: 0.5, offset: Size(0, 2), radius: 6)
            _ = try Self.render(renderer, card)
            #expect(renderer.lastStatistics.shadowCacheMisses == 1, "a new shape each frame")
            let (bytes, held) = renderer.caches.withLock { caches in
                (
                    caches.shadows.bytes,
                    caches.shadows.held.reduce(0) { $0 + $1.key.coverage.capacity + $1.value.capacity }
                )
            }
            #expect(bytes == held, "the count is what the cache holds")
            #expect(bytes <= 60_000, "width \(width): \(bytes) bytes kept")
        }
    }

    @Test func aKeptGroupCountsThePooledBufferItHoldsNotItsPixels() throws {
        let renderer = LayerRenderer(font: try FontFace.systemJapanese())
        // A large turned group first, so its buffer is in the pool for the small one.
        _ = try renderer.render(Self.board(), width: 200, height: 160, scale: 4)
        for _ in 0..<2 { _ = try Self.render(renderer, Self.board()) }
        let (bytes, held) = renderer.caches.withLock { caches in
            (
                caches.groups.bytes,
                caches.groups.held.reduce(0) {
                    $0 + $1.value.image.bytes.capacity + ($1.value.alpha?.bytes.capacity ?? 0)
                }
            )
        }
        #expect(held > 0, "the small group was kept")
        #expect(bytes == held)
    }

    @Test func aGroupItsClipCutsIsNotKept() throws {
        let renderer = LayerRenderer(font: try FontFace.systemJapanese())
        for _ in 0..<3 { _ = try Self.render(renderer, Self.board(x: 150)) }
        #expect(renderer.lastStatistics.groupCacheHits == 0)
        #expect(renderer.lastStatistics.offscreenGroups == 1)
    }

    /// Turning back towards upright, so each frame's group fits the buffer of the one before.
    @Test func aLayerTurningEveryFrameReusesPooledBuffersOnceWarm() throws {
        let renderer = LayerRenderer(font: try FontFace.systemJapanese())
        var allocations = 0
        for frame in 0..<6 {
            _ = try Self.render(renderer, Self.board(angle: 0.2 - 0.01 * Double(frame)))
            if frame > 0 { allocations += renderer.lastStatistics.offscreenAllocations }
        }
        #expect(allocations == 0)
        #expect(renderer.lastStatistics.groupCacheHits == 0)
    }

    /// Shadow-like coverage under a partly opaque group, then under an opaque layer through a
    /// clip: with `under` each fill skips the pixels drawn over next, and the bytes are the same.
    @Test func skippingWhatTheNextLayerReplacesChangesNoPixel() throws {
        let shadow = Mask(
            rect: PixelRect(x: 2, y: 3, width: 40, height: 30), bytes: (0..<(40 * 30)).map { UInt8($0 * 37 % 256) })
        var group = try Image(width: 24, height: 20)
        for i in 0..<(24 * 20) where i % 3 != 0 {
            let alpha: UInt8 = i % 5 == 0 ? 128 : 255
            group.bytes.replaceSubrange((4 * i)..<(4 * i + 4), with: [alpha / 2, alpha / 3, 0, alpha])
        }
        let layer = Rasterizer.fillRect(minX: 5.5, minY: 6.25, maxX: 30.5, maxY: 28.75, width: 48, height: 40)
        let clip = Rasterizer.fillRect(minX: 0, minY: 0, maxX: 28.5, maxY: 40, width: 48, height: 40)
        func draw(skipping: Bool) throws -> Image {
            var canvas = Canvas(image: try Image(width: 48, height: 40, fill: RGBA8(200, 220, 240, 255)))
            canvas.fill(
                shadow, with: .solid(.black), clip: nil, opacity: 0.35,
                under: skipping ? .image(group, x: 10, y: 8) : nil)
            canvas.draw(
                group, at: PixelRect(x: 10, y: 8, width: 24, height: 20), opacity: 1,
                within: PixelRect(x: 0, y: 0, width: 24, height: 20))
            canvas.fill(
                shadow, with: .solid(.black), clip: nil, opacity: 0.5, under: skipping ? .mask(layer, clip: clip) : nil)
            canvas.fill(layer, with: .solid(Color(hex: 0x336699)), clip: clip, opacity: 1)
            return canvas.image
        }
        #expect(try draw(skipping: true) == draw(skipping: false))
    }
}

extension LayerRendererCacheTests {
    @Test func anEmptyCoverMaskOrClipHidesNothing() throws {
        let shadow = Mask(rect: PixelRect(x: 0, y: 0, width: 8, height: 8), bytes: Array(repeating: 100, count: 64))
        let full = Mask(rect: PixelRect(x: 0, y: 0, width: 8, height: 8), bytes: Array(repeating: 255, count: 64))
        func draw(under cover: Cover?) throws -> Image {
            var canvas = Canvas(image: try Image(width: 8, height: 8, fill: RGBA8(200, 220, 240, 255)))
            canvas.fill(shadow, with: .solid(.black), clip: nil, opacity: 0.5, under: cover)
            return canvas.image
        }
        let plain = try draw(under: nil)
        #expect(try draw(under: .mask(.empty, clip: nil)) == plain)
        #expect(try draw(under: .mask(full, clip: .empty)) == plain)
        #expect(try draw(under: .mask(full, clip: nil)) != plain, "a full cover hides the whole fill")
    }
}

@Suite struct RowBandsTests {
    @Test func bandsCoverEveryRowOnceForAnyThreadCount() {
        for threads in [1, 2, 7] {
            let seen = Mutex([Int](repeating: 0, count: 500))
            RowBands.run(3..<500, width: 1000, threads: threads) { rows in
                seen.withLock { counts in for y in rows { counts[y] += 1 } }
            }
            #expect(seen.withLock { Array($0[3...]) } == [Int](repeating: 1, count: 497), "\(threads) threads")
            #expect(seen.withLock { $0[0..<3].allSatisfy { $0 == 0 } })
        }
    }
}
