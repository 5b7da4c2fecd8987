import BusSchema

/// Makes fuzz inputs from seeds: bit flips, byte changes, inserts, deletes, truncations, splices,
/// repeated chunks, interesting integers and dictionary tokens, or random bytes.
///
/// Input `index` depends only on the seed, the corpus and `index` (each input gets its own
/// ``SplitMix64`` stream), so any input of a run can be rebuilt on its own to reproduce a finding.
public struct Mutator: Sendable {
    /// The inputs mutations start from (at least one; an empty corpus means one empty input).
    public let corpus: [[UInt8]]
    /// Tokens of the input format (`{"`, `E: `, chunk names) inserted or overwritten whole.
    public let dictionary: [[UInt8]]
    /// The longest input made; longer results are cut.
    public let maximumLength: Int
    private let seed: UInt64

    public init(seed: UInt64, corpus: [[UInt8]], dictionary: [[UInt8]] = [], maximumLength: Int = 1 << 16) {
        self.seed = seed
        self.corpus = corpus.isEmpty ? [[]] : corpus
        self.dictionary = dictionary
        self.maximumLength = maximumLength
    }

    /// The `index`th input of this run.
    public func input(_ index: Int) -> [UInt8] {
        var random = SplitMix64(seed: self.seed ^ (UInt64(index) &* 0xd6e8_feb8_6659_fd93))
        // One input in sixteen is plain random bytes, so nothing depends on the seeds' shape.
        if random.next() % 16 == 0 {
            return (0..<Int(random.next() % 512)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        }
        var bytes = self.corpus[Int(random.next() % UInt64(self.corpus.count))]
        for _ in 0..<(1 + random.next() % 4) {
            self.mutate(&bytes, &random)
        }
        if bytes.count > self.maximumLength { bytes.removeLast(bytes.count - self.maximumLength) }
        return bytes
    }

    /// Applies one mutation chosen at random.
    private func mutate(_ bytes: inout [UInt8], _ random: inout SplitMix64) {
        let position = bytes.isEmpty ? 0 : Int(random.next() % UInt64(bytes.count))
        switch random.next() % 10 {
        case 0 where !bytes.isEmpty:
            bytes[position] ^= 1 << (random.next() % 8)
        case 1 where !bytes.isEmpty:
            bytes[position] = UInt8(truncatingIfNeeded: random.next())
        case 2:
            let count = 1 + Int(random.next() % 8)
            bytes.insert(contentsOf: (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }, at: position)
        case 3 where !bytes.isEmpty:
            let count = 1 + Int(random.next() % UInt64(min(bytes.count - position, 16)))
            bytes.removeSubrange(position..<position + count)
        case 4:
            bytes.removeLast(bytes.count - position)
        case 5:
            let other = self.corpus[Int(random.next() % UInt64(self.corpus.count))]
            let cut = other.isEmpty ? 0 : Int(random.next() % UInt64(other.count))
            bytes = Array(bytes[..<position]) + other[cut...]
        case 6 where !bytes.isEmpty:
            let count = 1 + Int(random.next() % UInt64(min(bytes.count - position, 32)))
            let chunk = bytes[position..<position + count]
            let repeats = 1 + Int(random.next() % 16)
            bytes.insert(contentsOf: Array(repeating: chunk, count: repeats).joined(), at: position)
        case 7:
            let value = Self.interesting[Int(random.next() % UInt64(Self.interesting.count))]
            let width = [1, 2, 4, 8][Int(random.next() % 4)]
            let littleEndian = random.next() % 2 == 0
            let encoded = (0..<width).map { byte in
                UInt8(truncatingIfNeeded: value >> (8 * (littleEndian ? byte : width - 1 - byte)))
            }
            Self.overwrite(&bytes, at: position, with: encoded)
        case 8 where !self.dictionary.isEmpty:
            let token = self.dictionary[Int(random.next() % UInt64(self.dictionary.count))]
            if random.next() % 2 == 0 {
                bytes.insert(contentsOf: token, at: position)
            } else {
                Self.overwrite(&bytes, at: position, with: token)
            }
        default:
            let text = Self.numbers[Int(random.next() % UInt64(Self.numbers.count))]
            bytes.insert(contentsOf: text.utf8, at: position)
        }
    }

    private static func overwrite(_ bytes: inout [UInt8], at position: Int, with new: [UInt8]) {
        let end = min(bytes.count, position + new.count)
        bytes.replaceSubrange(position..<end, with: new)
    }

    /// Boundary values of every integer width, as bit patterns.
    private static let interesting: [UInt64] = [
        0, 1, 0x7f, 0x80, 0xff, 0x100, 0x7fff, 0x8000, 0xffff, 0x1_0000, 0x7fff_ffff, 0x8000_0000, 0xffff_ffff,
        0x1_0000_0000, 0x7fff_ffff_ffff_ffff, 0x8000_0000_0000_0000, .max, UInt64(bitPattern: -2),
        0x7ff0_0000_0000_0000, 0x7ff8_0000_0000_0000, 0x4060_0000_0000_0000,
    ]

    /// Numbers written as text, for the text formats.
    private static let numbers = [
        "-1", "0", "-0", "1e308", "1e309", "-1e309", "NaN", "inf", "9223372036854775807", "9223372036854775808",
        "-9223372036854775809", "18446744073709551616", "4294967296", "2147483648", "0.0000001", "1.5", "65536",
    ]
}
