extension Image {
    /// A 64-bit digest of the premultiplied pixels as 16 lower-case hex digits: the
    /// `render.frame` checksum (same pixels, same checksum; one changed byte, another checksum).
    /// ``FrameDigest`` computes it, and keeps it up to date for a frame redrawn in parts.
    public var checksum: String { FrameDigest(of: self).checksum }
}

/// The checksum of an image kept block by block, so that a frame redrawn within a few
/// rectangles is hashed again only there (a whole 1600×1000 frame costs a few milliseconds of
/// memory traffic, a tenth of the render worker's time per frame of a drag).
///
/// The image is cut into blocks of ``blockWidth``×``blockHeight`` pixels (smaller at the right
/// and bottom edges). Each block is hashed by FNV-1a's step (xor, then multiply by its prime)
/// on 8 bytes at a time in four independent lanes, each step followed by a rotation (a multiply
/// carries a difference only upwards; the rotation brings the top bits down again), the bytes
/// of a row left over by a fifth, byte by byte; the lanes are mixed and folded with the block's
/// byte count. The checksum folds the image's size and the blocks' hashes in order. Every step
/// is a bijection of what it updates, so a change of any single byte always changes the block's
/// hash, and so the checksum.
public struct FrameDigest: Sendable, Equatable {
    public static let blockWidth = 64
    public static let blockHeight = 16

    public let width: Int
    public let height: Int
    public let channels: Int
    private var blocks: [UInt64]
    private let columns: Int

    /// Hashes every block of `image`.
    public init(of image: Image) {
        self.width = image.width
        self.height = image.height
        self.channels = image.channels
        self.columns = (image.width + Self.blockWidth - 1) / Self.blockWidth
        let rows = (image.height + Self.blockHeight - 1) / Self.blockHeight
        self.blocks = [UInt64](repeating: 0, count: self.columns * rows)
        self.rehash(image, columns: 0..<self.columns, rows: 0..<rows)
    }

    /// Hashes again the blocks of `image` that `rects` meet (the image is the one digested,
    /// changed only within them). An image of another size or depth is digested whole.
    public mutating func update(_ image: Image, within rects: [PixelRect]) {
        guard image.width == self.width, image.height == self.height, image.channels == self.channels else {
            self = FrameDigest(of: image)
            return
        }
        for rect in rects {
            guard let rect = rect.clipped(width: self.width, height: self.height) else { continue }
            self.rehash(
                image, columns: (rect.x / Self.blockWidth)..<((rect.x + rect.width - 1) / Self.blockWidth + 1),
                rows: (rect.y / Self.blockHeight)..<((rect.y + rect.height - 1) / Self.blockHeight + 1))
        }
    }

    /// The digest as 16 lower-case hex digits (``Image/checksum``).
    public var checksum: String {
        var hash = Self.mix(UInt64(self.width) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(self.height))
        hash = Self.mix(hash ^ UInt64(self.channels))
        for block in self.blocks { hash = Self.mix(hash ^ block) }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    private mutating func rehash(_ image: Image, columns: Range<Int>, rows: Range<Int>) {
        let (width, height, channels, count) = (self.width, self.height, self.channels, self.columns)
        image.bytes.withUnsafeBytes { pixels in
            self.blocks.withUnsafeMutableBufferPointer { blocks in
                for row in rows {
                    let ys = (row * Self.blockHeight)..<min(height, (row + 1) * Self.blockHeight)
                    for column in columns {
                        let x0 = column * Self.blockWidth
                        let rowBytes = (min(width, x0 + Self.blockWidth) - x0) * channels
                        blocks[row * count + column] = Self.hash(
                            pixels, rows: ys, offset: x0 * channels, rowBytes: rowBytes, stride: width * channels)
                    }
                }
            }
        }
    }

    /// The hash of `rowBytes` bytes from `offset` in each row of `rows` (`stride` bytes apart).
    private static func hash(
        _ pixels: UnsafeRawBufferPointer, rows: Range<Int>, offset: Int, rowBytes: Int, stride: Int
    ) -> UInt64 {
        let prime: UInt64 = 0x0000_0100_0000_01B3
        var lanes: (UInt64, UInt64, UInt64, UInt64) = (
            0xCBF2_9CE4_8422_2325, 0x8422_2325_CBF2_9CE4, 0x9CE4_CBF2_2325_8422, 0x2325_8422_9CE4_CBF2
        )
        var rest: UInt64 = 0xCBF2_9CE4_8422_2325
        let chunks = rowBytes / 32
        for y in rows {
            let start = y * stride + offset
            func step(_ lane: UInt64, _ at: Int) -> UInt64 {
                let mixed = (lane ^ pixels.loadUnaligned(fromByteOffset: at, as: UInt64.self)) &* prime
                return mixed << 31 | mixed >> 33
            }
            for chunk in 0..<chunks {
                let at = start + chunk * 32
                lanes = (step(lanes.0, at), step(lanes.1, at + 8), step(lanes.2, at + 16), step(lanes.3, at + 24))
            }
            for at in (start + chunks * 32)..<(start + rowBytes) { rest = (rest ^ UInt64(pixels[at])) &* prime }
        }
        var hash = Self.mix(lanes.0)
        for lane in [lanes.1, lanes.2, lanes.3, rest, UInt64(rows.count * rowBytes)] {
            hash = Self.mix(hash ^ Self.mix(lane))
        }
        return hash
    }

    /// SplitMix64's finaliser: a bijection that spreads every bit over the whole value, so lanes
    /// differing in the same bits do not cancel when folded, and nearby images get unrelated digests.
    private static func mix(_ value: UInt64) -> UInt64 {
        var value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
