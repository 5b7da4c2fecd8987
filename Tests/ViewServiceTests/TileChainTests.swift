import BusSchema
import Testing

@testable import ViewService

/// The tiles a page needs: a new page gets the key frame and every tile after it that still
/// shows, a page that has some gets the rest, a tile a later one covers is dropped, and tiles
/// that do not follow the newest frame are refused.
@Suite struct TileChainTests {
    static func tile(_ x: Int, _ y: Int, _ width: Int, _ height: Int, byte: UInt8 = 1) -> RenderTiles.Tile {
        RenderTiles.Tile(x: x, y: y, width: width, height: height, encoding: .png, data: [byte])
    }

    static func key(frame: Int) -> RenderTiles {
        RenderTiles(
            surface: "main", width: 100, height: 50, scale: 1, frame: frame, base: nil, tiles: [tile(0, 0, 100, 50)])
    }

    /// Applies `messages` to `chain` in order, expecting it to take every one.
    static func apply(
        _ messages: [RenderTiles], to chain: inout TileChain, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for (index, message) in messages.enumerated() {
            let taken = chain.apply(message)
            #expect(taken, "message \(index + 1) of \(messages.count)", sourceLocation: sourceLocation)
        }
    }

    static func patch(frame: Int, x: Int, width: Int = 10) -> RenderTiles {
        RenderTiles(
            surface: "main", width: 100, height: 50, scale: 1, frame: frame, base: frame - 1,
            tiles: [tile(x, 0, width, 10, byte: UInt8(frame))])
    }

    @Test func aNewPageGetsTheKeyFrameAndEveryTileAfterItAPageWithSomeTheRest() throws {
        var chain = TileChain()
        #expect(chain.since(0) == nil, "nothing before a key frame")
        let refused101 = !chain.apply(Self.patch(frame: 2, x: 0))
        #expect(refused101, "tiles without the frame they change")
        Self.apply([Self.key(frame: 1), Self.patch(frame: 2, x: 0), Self.patch(frame: 3, x: 50)], to: &chain)
        let new = try #require(chain.since(0))
        #expect(new.key && new.header.frame == 3 && new.number == 3)
        #expect(new.tiles.map(\.x) == [0, 0, 50], "key frame first, then the tiles in order")
        let behind = try #require(chain.since(2))
        #expect(!behind.key && behind.tiles.map(\.x) == [50])
        #expect(chain.since(3) == nil, "up to date")
    }

    @Test func aFrameWithoutTilesReachesAnUpToDatePageAsItsHeaderAndALatePageWithTheTiles() throws {
        var chain = TileChain()
        var unchanged = Self.patch(frame: 3, x: 0)
        unchanged.tiles = []
        unchanged.input = TouchInput {
            $0.device = "web-1"
            $0.seq = 7
        }
        Self.apply([Self.key(frame: 1), Self.patch(frame: 2, x: 0), unchanged], to: &chain)
        let upToDate = try #require(chain.since(2), "a page with every tile still gets frame 3")
        #expect(upToDate.tiles.isEmpty && !upToDate.key && upToDate.header.frame == 3)
        #expect(upToDate.header.input?.seq == 7 && upToDate.number == 3)
        let new = try #require(chain.since(0))
        #expect(new.key && new.tiles.count == 2 && new.header.input?.seq == 7)
        #expect(chain.since(3) == nil, "up to date")
        Self.apply([Self.patch(frame: 4, x: 50)], to: &chain)
        #expect(try #require(chain.since(3)).tiles.map(\.x) == [50], "frame 4 follows the frame without tiles")
    }

    @Test func aTileALaterOneCoversIsDroppedAndAKeyFrameStartsAgain() throws {
        var chain = TileChain()
        Self.apply(
            [Self.key(frame: 1), Self.patch(frame: 2, x: 10), Self.patch(frame: 3, x: 5, width: 20)], to: &chain)
        #expect(chain.entries.map(\.tile.data) == [[1], [3]], "frame 2's tile lies under frame 3's")
        let page = try #require(chain.since(2))
        #expect(page.tiles.map(\.data) == [[3]], "a page that had frame 2's tile gets the one over it")
        Self.apply([Self.key(frame: 9)], to: &chain)
        let after = try #require(chain.since(page.number))
        #expect(after.key && after.tiles.count == 1 && after.header.frame == 9)
    }

    @Test func tilesThatDoNotFollowTheNewestFrameAreRefusedAndTheChainStays() throws {
        var chain = TileChain()
        Self.apply([Self.key(frame: 1), Self.patch(frame: 2, x: 0)], to: &chain)
        let refused102 = !chain.apply(Self.patch(frame: 4, x: 30))
        #expect(refused102, "frame 3 was lost")
        var resized = Self.patch(frame: 3, x: 0)
        resized.width = 200
        let refused103 = !chain.apply(resized)
        #expect(refused103, "another frame size")
        #expect(chain.since(0)?.header.frame == 2)
        Self.apply([Self.patch(frame: 3, x: 30)], to: &chain)
    }

    @Test func theChainNeverHoldsMoreThanItsTileBound() {
        var chain = TileChain()
        Self.apply([Self.key(frame: 1)], to: &chain)
        // Each message's tiles are one-pixel squares side by side: none covers another.
        var frame = 2
        var refused = false
        while !refused, frame < 10_000 {
            let tiles = (0..<50).map { Self.tile(($0 + frame * 50) % 100, (frame * 50 / 100) % 50, 1, 1) }
            refused = !chain.apply(
                RenderTiles(
                    surface: "main", width: 100, height: 50, scale: 1, frame: frame, base: frame - 1, tiles: tiles))
            frame += 1
        }
        #expect(refused, "refused once full")
        #expect(chain.entries.count <= TileChain.maximumTiles)
    }
}
