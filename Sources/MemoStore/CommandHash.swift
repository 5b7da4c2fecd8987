import BusSchema

/// A 64-bit hash over a command's payload fields, each tagged and length-prefixed, so it does
/// not depend on the order the sender wrote the map's keys in, and costs a pass over the bytes
/// eight at a time rather than an encoding (it runs for every command the store applies). `client` and `cmd_id` are left out: they are the key the
/// hash is stored under. It tells a resend from another command under the same key; it is no
/// defence against a client forging collisions with itself.
struct CommandHash {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325
    private static let multiplier: UInt64 = 0x9e37_79b9_7f4a_7c15

    init(_ command: MemoCommand) {
        self.add(1, command.op.rawValue)
        self.add(2, command.memoId)
        self.add(3, command.text)
        self.add(4, command.x)
        self.add(5, command.y)
        self.add(6, command.width)
        self.add(7, command.height)
        self.add(8, command.scale)
        self.add(9, command.rotation)
        self.add(10, command.color)
        self.add(11, command.baseVersion.map { UInt64(bitPattern: $0) })
        self.add(12, command.order?.rawValue)
        self.add(13, command.image)
        self.add(14, command.query)
        self.add(15, command.includeTrash.map { $0 ? UInt64(1) : 0 })
        self.add(16, command.format?.rawValue)
    }

    /// The hash as SQLite stores it.
    var stored: Int64 { Int64(bitPattern: self.value) }

    /// Mixes one word in: multiply-xorshift, so every input bit reaches the high and low halves.
    private mutating func add(word: UInt64) {
        self.value = (self.value ^ word) &* Self.multiplier
        self.value ^= self.value >> 29
    }

    /// A field absent or null hashes as its tag alone; present, as tag | 0x80, its length and its bytes.
    private mutating func add(_ tag: UInt8, _ string: String?) {
        guard var string else { return self.add(word: UInt64(tag)) }
        self.add(word: UInt64(tag | 0x80) | UInt64(string.utf8.count) << 8)
        string.withUTF8 { bytes in
            var offset = 0
            while offset + 8 <= bytes.count {
                self.add(word: UnsafeRawBufferPointer(bytes).loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                offset += 8
            }
            var tail: UInt64 = 0
            for index in offset..<bytes.count { tail |= UInt64(bytes[index]) << UInt64(8 * (index - offset)) }
            self.add(word: tail)
        }
    }

    private mutating func add(_ tag: UInt8, _ number: Double?) {
        self.add(tag, number.map(\.bitPattern))
    }

    private mutating func add(_ tag: UInt8, _ word: UInt64?) {
        guard let word else { return self.add(word: UInt64(tag)) }
        self.add(word: UInt64(tag | 0x80))
        self.add(word: word)
    }
}
