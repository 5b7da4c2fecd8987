import BusSchema

/// What a page needs to show a surface's newest frame: the last key frame and every tile after
/// it that no later tile covers, in order, each numbered. A message without tiles (a frame that
/// changed no pixel but names newer input) takes a number of its own, so pages get its header.
///
/// A page that has everything up to number `n` gets the tiles after `n` (``since(_:)``); a new
/// page (`n` = 0) gets them all, which start with the key frame and so cover the whole frame (the
/// late joiner's full frame). A page that falls behind gets, in one packet, every tile it missed
/// that still shows, instead of skipping frames it cannot do without. A tile that a later one
/// covers is dropped, so a drag that redraws the same region keeps one tile of it. A message
/// whose `base` is not the newest frame (one was lost on the way) is refused and the chain stays
/// as it is, stale but whole, until the next key frame; so is one that would grow the chain
/// beyond ``maximumTiles`` or ``maximumBytes``.
struct TileChain {
    /// Tiles kept at most.
    static let maximumTiles = 1024
    /// Encoded bytes kept at most.
    static let maximumBytes = 64 << 20

    struct Entry {
        let number: UInt64
        let tile: RenderTiles.Tile
    }

    /// The newest message's fields, its tiles left out.
    private(set) var newest: RenderTiles?
    private(set) var entries: [Entry] = []
    private var bytes = 0
    private var lastNumber: UInt64 = 0

    /// The number of the newest tile (0 before any).
    var number: UInt64 { self.lastNumber }
    /// Messages with tiles taken so far (frames that changed pixels): a page that had `n` of them
    /// and gets the newest packet skips all but the last of those after its `n` (its pixels show
    /// the rest's). The count goes with the tile number: pages at the same number have the same.
    private(set) var changes: UInt64 = 0

    /// Adds a message's tiles; false (changing nothing) when it does not follow the newest frame.
    mutating func apply(_ message: RenderTiles) -> Bool {
        var entries = self.entries
        var bytes = self.bytes
        if message.isKeyFrame {
            entries.removeAll()
            bytes = 0
        } else {
            guard let newest = self.newest, newest.frame == message.base, newest.width == message.width,
                newest.height == message.height, newest.surface == message.surface
            else { return false }
        }
        var number = self.lastNumber
        for tile in message.tiles {
            entries.removeAll { entry in
                let covered = Self.covers(tile, entry.tile)
                if covered { bytes -= entry.tile.data.count }
                return covered
            }
            number += 1
            entries.append(Entry(number: number, tile: tile))
            bytes += tile.data.count
        }
        if message.tiles.isEmpty { number += 1 }
        guard entries.count <= Self.maximumTiles, bytes <= Self.maximumBytes else { return false }
        var header = message
        header.tiles = []
        self.newest = header
        self.entries = entries
        self.bytes = bytes
        self.lastNumber = number
        if !message.tiles.isEmpty { self.changes += 1 }
        return true
    }

    /// The newest frame's fields and the tiles after number `number`, if anything came after it
    /// (no tiles when only frames without any did); `key` when they start with the key frame
    /// (the page may resize its canvas to the frame).
    func since(_ number: UInt64) -> (header: RenderTiles, tiles: [RenderTiles.Tile], number: UInt64, key: Bool)? {
        guard let newest = self.newest, number < self.lastNumber else { return nil }
        let first = self.entries.firstIndex(where: { $0.number > number }) ?? self.entries.endIndex
        let tiles = self.entries[first...].map(\.tile)
        let key =
            first == 0 && !tiles.isEmpty && tiles[0].width == newest.width && tiles[0].height == newest.height
        return (newest, tiles, self.lastNumber, key)
    }

    /// Whether `outer` hides every pixel of `inner`.
    private static func covers(_ outer: RenderTiles.Tile, _ inner: RenderTiles.Tile) -> Bool {
        outer.x <= inner.x && outer.y <= inner.y && outer.x + outer.width >= inner.x + inner.width
            && outer.y + outer.height >= inner.y + inner.height
    }
}
