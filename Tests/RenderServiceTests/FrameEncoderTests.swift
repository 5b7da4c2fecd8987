import BusSchema
import Dispatch
import RenderCore
import Synchronization
import Testing

@testable import RenderService

/// Encoding for viewers runs on a thread of its own (the render thread never waits for it: see
/// ``FrameRendererTests``); when it lags the newest frame wins, the skipped ones counted, a key
/// frame never lost.
@Suite struct FrameEncoderTests {
    /// What an encoder delivered, and a semaphore signalled per delivery.
    final class Deliveries: Sendable {
        let images = Mutex<[(frameID: Int, image: EncodedImage)]>([])
        let tiles = Mutex<[(frameID: Int, tiles: EncodedTiles)]>([])
        let arrived = DispatchSemaphore(value: 0)

        func deliver(_ frameID: Int, _ result: Result<EncodedFrame, any Error>) {
            if let image = try? result.get().image { self.images.withLock { $0.append((frameID, image)) } }
            if let tiles = try? result.get().tiles { self.tiles.withLock { $0.append((frameID, tiles)) } }
            self.arrived.signal()
        }

        func wait(_ what: Comment) throws {
            try #require(self.arrived.wait(timeout: .now() + 60) == .success, what)
        }
    }

    static func frame(
        _ id: Int, key: Bool, marked: [Int] = [], row: Int = 10, tiles: Bool = false, input: UInt64? = nil
    ) throws -> FrameEncoder.Frame {
        var image = try Image(width: 64, height: 48, fill: RGBA8(0x33, 0x66, 0x99, 255))
        for x in marked { image.setPixel(x, row, RGBA8(255, 255, 255, 255)) }
        let stream = ImageRequest.Stream(keyFrame: key)
        let touch = input.map { seq in
            TouchInput {
                $0.device = "web-1"
                $0.seq = seq
            }
        }
        return FrameEncoder.Frame(
            frameID: id, image: image,
            request: ImageRequest(image: tiles ? nil : stream, tiles: tiles ? stream : nil, input: touch))
    }

    @Test func framesDrawnWhileTheEncoderIsBusyAreSkippedToTheNewestWhichKeepsTheKey() throws {
        let queue = DispatchQueue(label: "test.encoder")
        let deliveries = Deliveries()
        let encoder = try FrameEncoder(encoding: .jpeg, quality: 85, queue: queue, deliver: deliveries.deliver)
        // Held: as if the encoder were still busy with an earlier frame.
        queue.suspend()
        encoder.offer(try Self.frame(1, key: true))
        encoder.offer(try Self.frame(2, key: false))
        encoder.offer(try Self.frame(3, key: false))
        #expect(encoder.skipped == 2)
        queue.resume()
        try deliveries.wait("the newest frame encoded")
        let first = try #require(deliveries.images.withLock { $0.first })
        #expect(first.frameID == 3, "the newest frame wins")
        #expect(first.image.damage == [PixelRect(x: 0, y: 0, width: 64, height: 48)], "the skipped key frame's key")
        #expect(Array(first.image.data.prefix(3)) == [0xFF, 0xD8, 0xFF], "a JPEG")
        encoder.offer(try Self.frame(4, key: false, marked: [10]))
        try deliveries.wait("the next frame encoded")
        let next = try #require(deliveries.images.withLock { $0.count == 2 ? $0.last : nil })
        #expect(next.frameID == 4)
        let area = next.image.damage.reduce(0) { $0 + $1.width * $1.height }
        #expect(area > 0 && area < 64 * 48, "only what changed since the image before: \(next.image.damage)")
        #expect(encoder.skipped == 2)
    }

    @Test func tilesCarryOnlyWhatChangedSinceTheFrameTheLastTilesShowedAKeyFrameFirst() throws {
        let queue = DispatchQueue(label: "test.encoder")
        let deliveries = Deliveries()
        let encoder = try FrameEncoder(encoding: .jpeg, quality: 85, queue: queue, deliver: deliveries.deliver)
        queue.suspend()
        encoder.offer(try Self.frame(1, key: true, tiles: true))
        encoder.offer(try Self.frame(2, key: false, tiles: true))
        queue.resume()
        try deliveries.wait("the key frame")
        let key = try #require(deliveries.tiles.withLock { $0.first })
        #expect(key.frameID == 2 && key.tiles.base == nil, "the skipped key frame's key")
        #expect(key.tiles.tiles.map { [$0.x, $0.y, $0.width, $0.height] } == [[0, 0, 64, 48]], "one tile, the frame")
        encoder.offer(try Self.frame(3, key: false, marked: [10, 11], tiles: true))
        try deliveries.wait("the changed frame")
        let changed = try #require(deliveries.tiles.withLock { $0.count == 2 ? $0.last : nil })
        #expect(changed.frameID == 3 && changed.tiles.base == 2, "over the frame the key frame showed")
        let tile = try #require(changed.tiles.tiles.first)
        #expect(changed.tiles.tiles.count == 1)
        #expect([tile.x, tile.y, tile.width, tile.height] == [10, 10, 2, 1], "the two changed pixels")
        #expect(tile.encoding == .png, "a small tile goes as PNG")
        let decoded = try PNGCodec.decode(tile.data)
        #expect(decoded.width == 2 && decoded.height == 1 && decoded.pixel(0, 0) == RGBA8(255, 255, 255, 255))
        encoder.offer(try Self.frame(4, key: false, marked: [10, 11], tiles: true))
        try deliveries.wait("the unchanged frame")
        #expect(deliveries.tiles.withLock { $0.count } == 2, "no tiles for a frame that changed nothing")
        encoder.offer(try Self.frame(5, key: false, tiles: true))
        try deliveries.wait("the frame changed back")
        let back = try #require(deliveries.tiles.withLock { $0.count == 3 ? $0.last : nil })
        #expect(back.frameID == 5 && back.tiles.base == 3, "nothing for frame 4, which showed no change")
    }

    @Test func aFrameThatChangedNoPixelButNamesNewerInputIsAMessageWithoutTilesOnceForThatInput() throws {
        let deliveries = Deliveries()
        let encoder = try FrameEncoder(encoding: .jpeg, quality: 85, deliver: deliveries.deliver)
        // Frame n names input `inputs[n]`; frames 2 to 5 change no pixel of frame 1.
        for (id, input): (Int, UInt64?) in [(1, 7), (2, 7), (3, 8), (4, 8), (5, nil), (6, 9)] {
            encoder.offer(try Self.frame(id, key: id == 1, marked: id == 6 ? [3] : [], tiles: true, input: input))
            try deliveries.wait("frame \(id)")
        }
        let sent = deliveries.tiles.withLock { $0 }
        #expect(sent.map(\.frameID) == [1, 3, 6], "frame 3 names newer input; 2, 4 and 5 none")
        #expect(sent[1].tiles.tiles.isEmpty && sent[1].tiles.base == 1 && sent[1].tiles.input?.seq == 8)
        #expect(sent[2].tiles.base == 3 && sent[2].tiles.tiles.count == 1, "frame 6 follows the frame without tiles")
    }

    @Test func tilesThatWeighLittleButPileUpPastTheirBoundGiveWayToAFewOverThem() throws {
        // A key frame of noise weighs far more than the one-pixel tiles that follow it.
        var random = SplitMix64(seed: 5)
        var noise = try Image(width: 256, height: 256, fill: RGBA8(0, 0, 0, 255))
        for y in 0..<256 {
            for x in 0..<256 {
                let v = UInt8(truncatingIfNeeded: random.next())
                noise.setPixel(x, y, RGBA8(v, v &+ 85, v &+ 170, 255))
            }
        }
        let deliveries = Deliveries()
        let encoder = try FrameEncoder(encoding: .jpeg, quality: 85, deliver: deliveries.deliver)
        let stream = ImageRequest(image: nil, tiles: .init(keyFrame: true), input: nil)
        encoder.offer(FrameEncoder.Frame(frameID: 1, image: noise, request: stream))
        try deliveries.wait("the key frame")
        // Then one more pixel a frame, each apart from the others: no tile covers another.
        var image = noise
        let next = ImageRequest(image: nil, tiles: .init(keyFrame: false), input: nil)
        for id in 2...(ImageEncoder.maximumShownTiles + 20) {
            image.setPixel((id * 2) % 256, (id * 2 / 256) * 2, RGBA8(255, 255, 255, 255))
            encoder.offer(FrameEncoder.Frame(frameID: id, image: image, request: next))
            try deliveries.wait("frame \(id)")
        }
        let sent = deliveries.tiles.withLock { $0.map(\.tiles) }
        let keyBytes = try #require(sent.first).bytes
        #expect(sent.dropFirst().reduce(0) { $0 + $1.bytes } < keyBytes, "the tiles weigh less than the key frame")
        #expect(sent.dropFirst().allSatisfy { $0.base != nil }, "no key frame")
        #expect(sent.dropFirst().contains { $0.tiles.contains { $0.width > 2 } }, "a tile over many pixels")
    }

    /// Tile messages for frames 2…`frames` after a key frame 1: frame n marks the pixels
    /// `marked(n)` of row `row(n)`, each encoded before the next is offered.
    static func tileRun(frames: Int, row: (Int) -> Int = { _ in 10 }, marked: (Int) -> [Int]) throws
        -> [EncodedTiles]
    {
        let deliveries = Deliveries()
        let encoder = try FrameEncoder(encoding: .jpeg, quality: 85, deliver: deliveries.deliver)
        encoder.offer(try Self.frame(1, key: true, tiles: true))
        try deliveries.wait("the key frame")
        for id in 2...frames {
            encoder.offer(try Self.frame(id, key: false, marked: marked(id), row: row(id), tiles: true))
            try deliveries.wait("frame \(id)")
        }
        return deliveries.tiles.withLock { $0.map(\.tiles) }
    }

    @Test func aDragSendsNoKeyFrameAndTilesPilingUpGiveWayToAFewOverThemUnlessThoseAreHalfTheFrame() throws {
        // The same two pixels change back and forth: each tile covers the one before.
        let same = try Self.tileRun(frames: 60) { $0 % 2 == 0 ? [10, 11] : [] }
        #expect(same.count == 60)
        #expect(same.dropFirst().allSatisfy { $0.base != nil }, "tiles only, however many bytes they add up to")
        let keyBytes = try #require(same.first).bytes
        #expect(same.dropFirst().reduce(0) { $0 + $1.bytes } > 2 * keyBytes, "more than the key frame's bytes sent")
        // A new pixel each frame: no tile covers another, and they outweigh the key frame.
        let spread = try Self.tileRun(frames: 60) { [$0] }
        #expect(spread.dropFirst().allSatisfy { $0.base != nil }, "no key frame")
        let widest = spread.dropFirst().flatMap(\.tiles).map(\.width).max() ?? 0
        #expect(widest > 10, "one tile over the tiles still showing (the row from x 1 on)")
        let sent = spread.dropFirst().reduce(0) { $0 + $1.bytes }
        #expect(sent > 2 * keyBytes, "the tiles outweighed twice the key frame")
        // A pixel at the top and the bottom in turn: a tile over each row, no key frame.
        let rows = try Self.tileRun(frames: 60, row: { $0 % 2 == 0 ? 0 : 47 }) { [$0] }
        #expect(rows.dropFirst().allSatisfy { $0.base != nil }, "two thin tiles, not one over the frame")
        // Pixels all over the frame: a few tiles over them would be half the frame.
        let scattered = try Self.tileRun(frames: 60, row: { $0 * 11 % 48 }) { [$0 * 7 % 64] }
        #expect(scattered.dropFirst().contains { $0.base == nil }, "a key frame instead of half the frame")
    }
}
