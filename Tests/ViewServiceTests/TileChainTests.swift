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

    /// A 100 × 50 canvas of tile ids, as a page draws tiles over it in order.
    struct Canvas: Equatable {
        var pixels = [Int](repeating: 0, count: 100 * 50)

        mutating func draw(_ tiles: [RenderTiles.Tile]) {
            for tile in tiles {
                let id = tile.data.reduce(0) { $0 << 8 | Int($1) }
                for y in tile.y..<(tile.y + tile.height) {
                    for x in tile.x..<(tile.x + tile.width) { self.pixels[y * 100 + x] = id }
                }
            }
        }
    }

    @Test func pagesDrawingWhatTheyAreSentSeeTheFrameThatANewPageAndTheRenderWorkerSee() throws {
        // A seeded random run of key frames, patches (some without tiles), lost and resized
        // messages; three pages that ask at random times, each drawing every packet it gets.
        var random = SplitMix64(seed: 21)
        func below(_ bound: Int) -> Int { Int.random(in: 0..<bound, using: &random) }
        var chain = TileChain()
        var truth = Canvas()
        var pages = [(number: UInt64, canvas: Canvas)](repeating: (0, Canvas()), count: 3)
        var newest = 0
        var nextID = 1
        for frame in 1...1500 {
            let roll = below(100)
            var message = RenderTiles(
                surface: "main", width: 100, height: 50, scale: 1, frame: frame, base: newest > 0 ? newest : nil,
                tiles: [])
            if newest == 0 || roll < 5 {
                message.base = nil
                message.tiles = [Self.tile(0, 0, 100, 50)]
            } else {
                message.tiles = (0..<below(5)).map { _ in
                    let (x, y) = (below(100), below(50))
                    return Self.tile(x, y, 1 + below(100 - x), 1 + below(50 - y))
                }
                if roll < 10 { message.base = newest - 1 }  // one was lost
                if roll >= 10 && roll < 12 { message.width = 99 }
            }
            for index in message.tiles.indices {
                message.tiles[index].data = [UInt8(nextID >> 8 & 0xff), UInt8(nextID & 0xff)]
                nextID += 1
            }
            if chain.apply(message) {
                truth.draw(message.tiles)
                newest = frame
            }
            for index in pages.indices where below(4) == 0 {
                guard let due = chain.since(pages[index].number) else { continue }
                pages[index].canvas.draw(due.tiles)
                pages[index].number = due.number
                let same = pages[index].canvas == truth
                try #require(same, "page \(index) after frame \(frame)")
            }
            #expect(chain.entries.count <= TileChain.maximumTiles)
        }
        let late = try #require(chain.since(0))
        var fresh = Canvas()
        fresh.draw(late.tiles)
        let whole = late.key && fresh == truth
        #expect(whole, "a new page gets the frame whole")
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
