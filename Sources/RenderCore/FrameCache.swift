/// Values by key within a byte budget, kept while recent frames use them.
///
/// A renderer's caches see a steady stream of keys that are never used again: every edit of a
/// memo makes a new text (a new layout, new sampled coverage, a new offscreen group), and every
/// sub-pixel move of a dragged memo new sampled coverage. Emptying a cache only when it reached
/// its cap kept memory growing for minutes up to the cap (a render worker went from 54 to
/// 107 MiB under an edit a second). So an entry is stamped with the frame that last used it and
/// goes once ``idleFrames`` frames have passed without it (``endFrame()`` sweeps): the cache
/// holds what the screen shows, which stays the same size while the screen does. The byte and
/// entry limits bound a frame that by itself needs more: the least recently used entries go
/// first, down to three quarters of the limit, so the sorting is paid once per many inserts.
struct FrameCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Entry: Sendable {
        var value: Value
        let bytes: Int
        var lastFrame: UInt64
    }

    /// The most bytes held (as the caller counts them on ``store(_:for:bytes:)``).
    var byteLimit: Int
    let entryLimit: Int
    /// Frames an entry stays after its last use.
    let idleFrames: UInt64
    private var entries: [Key: Entry] = [:]
    /// The bytes of every entry held.
    private(set) var bytes = 0
    private var frame: UInt64 = 0

    init(byteLimit: Int, entryLimit: Int, idleFrames: UInt64 = 120) {
        self.byteLimit = byteLimit
        self.entryLimit = entryLimit
        self.idleFrames = idleFrames
    }

    var count: Int { self.entries.count }

    /// Every entry held.
    var held: [(key: Key, value: Value)] { self.entries.map { ($0.key, $0.value.value) } }

    /// The value kept for `key`, marked as used in this frame.
    mutating func value(for key: Key) -> Value? {
        guard let index = self.entries.index(forKey: key) else { return nil }
        self.entries.values[index].lastFrame = self.frame
        return self.entries.values[index].value
    }

    /// Keeps `value` for `key`, counted as `bytes`; a value larger than the whole budget is not kept.
    mutating func store(_ value: Value, for key: Key, bytes: Int) {
        if let old = self.entries.removeValue(forKey: key) { self.bytes -= old.bytes }
        guard bytes <= self.byteLimit else { return }
        if self.bytes + bytes > self.byteLimit || self.entries.count >= self.entryLimit {
            self.evict(toBytes: min(self.byteLimit * 3 / 4, self.byteLimit - bytes), count: self.entryLimit * 3 / 4)
        }
        self.entries[key] = Entry(value: value, bytes: bytes, lastFrame: self.frame)
        self.bytes += bytes
    }

    /// Ends a frame: every 32nd, drops the entries no frame used for ``idleFrames``.
    mutating func endFrame() {
        self.frame &+= 1
        guard self.frame % 32 == 0, self.frame > self.idleFrames else { return }
        let oldest = self.frame - self.idleFrames
        guard self.entries.values.contains(where: { $0.lastFrame < oldest }) else { return }
        self.entries = self.entries.filter { $0.value.lastFrame >= oldest }
        self.bytes = self.entries.values.reduce(0) { $0 + $1.bytes }
    }

    /// Removes the least recently used entries until at most `bytes` and `count` are held.
    private mutating func evict(toBytes bytes: Int, count: Int) {
        let byAge = self.entries.sorted { $0.value.lastFrame < $1.value.lastFrame }
        for (key, entry) in byAge {
            guard self.bytes > bytes || self.entries.count > count else { break }
            self.entries[key] = nil
            self.bytes -= entry.bytes
        }
    }
}
