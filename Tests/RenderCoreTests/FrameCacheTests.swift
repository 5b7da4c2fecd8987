import Synchronization
import Testing

@testable import RenderCore

/// A renderer's caches hold what recent frames used, within their byte limits.
@Suite struct FrameCacheTests {
    @Test func pastItsByteLimitTheLeastRecentlyUsedEntriesGoFirst() {
        var cache = FrameCache<Int, [UInt8]>(byteLimit: 1000, entryLimit: 100)
        for key in 0..<9 {
            cache.store([UInt8](repeating: 0, count: 100), for: key, bytes: 100)
            cache.endFrame()
        }
        _ = cache.value(for: 0)
        cache.store([], for: 9, bytes: 200)
        #expect(cache.bytes <= 1000)
        #expect(cache.bytes == cache.count * 100 + 100, "the counted bytes are the entries'")
        #expect(cache.value(for: 0) != nil, "used in this frame")
        #expect(cache.value(for: 9) != nil, "just stored")
        #expect(cache.value(for: 1) == nil, "the oldest unused")
    }

    @Test func anEntryNoFrameUsedForItsIdleFramesIsDropped() {
        var cache = FrameCache<String, Int>(byteLimit: 1 << 20, entryLimit: 100, idleFrames: 40)
        cache.store(1, for: "old", bytes: 10)
        cache.store(2, for: "shown", bytes: 10)
        for _ in 0..<128 {
            _ = cache.value(for: "shown")
            cache.endFrame()
        }
        #expect(cache.value(for: "old") == nil)
        #expect(cache.value(for: "shown") == 2)
        #expect(cache.bytes == 10)
    }

    @Test func aValueLargerThanTheWholeBudgetIsNotKept() {
        var cache = FrameCache<Int, Int>(byteLimit: 100, entryLimit: 10)
        cache.store(1, for: 1, bytes: 50)
        cache.store(2, for: 2, bytes: 101)
        #expect(cache.value(for: 2) == nil)
        #expect(cache.value(for: 1) == 1)
        #expect(cache.bytes == 50)
    }

    /// What an edit a second did to a render worker: every edit a new text, and the old text's
    /// layout, coverage and group kept until a cap. Now the caches settle at what the screen shows.
    @Test func aRendererThatDrewManyTextsHoldsWhatOneThatDrewOnlyTheLastHolds() throws {
        let font = try FontFace.systemJapanese()
        let edited = LayerRenderer(font: font)
        for edit in 0..<40 {
            for _ in 0..<2 {
                _ = try LayerRendererCacheTests.render(edited, LayerRendererCacheTests.board(text: "メモ \(edit)"))
            }
        }
        let fresh = LayerRenderer(font: font)
        for renderer in [edited, fresh] {
            for _ in 0..<200 {
                _ = try LayerRendererCacheTests.render(renderer, LayerRendererCacheTests.board(text: "最後"))
            }
        }
        let held = { (renderer: LayerRenderer) in
            renderer.caches.withLock { [$0.layouts.count, $0.sampled.count, $0.shadows.count, $0.groups.count] }
        }
        // The kept group holds the memo's text, so its layout and coverage went idle and left.
        #expect(held(fresh) == [0, 0, 1, 1], "the one memo's shadow and group")
        #expect(held(edited) == held(fresh))
    }
}
