/// Answers larger than one message: an export or search split into parts, and put back together.
extension MemoAck {
    /// This ack as parts of at most about `maximumBytes` each (encoded), or itself when it fits.
    ///
    /// Only `export`, `files` and `results` are split: `export` at Unicode scalar boundaries,
    /// the lists between items (an item larger than a part travels alone). Every part repeats
    /// the other fields and carries `chunk` (from 0) and `chunks`.
    public func chunked(maximumBytes: Int) -> [MemoAck] {
        guard self.export != nil || self.files != nil || self.results != nil,
            self.messagePack.count > maximumBytes
        else { return [self] }
        var base = self
        base.export = nil
        base.files = nil
        base.results = nil
        // Room for the part's own data once the shared fields and the chunk numbers are in.
        let budget = max(maximumBytes - base.messagePack.count - 32, 1024)
        var parts: [MemoAck] = []
        if let export = self.export {
            for piece in Self.split(export, bytes: budget) {
                var part = base
                part.export = piece
                parts.append(part)
            }
        }
        if let files = self.files {
            for group in Self.group(files, bytes: budget, size: { $0.name.utf8.count + $0.content.utf8.count + 32 }) {
                var part = base
                part.files = group
                parts.append(part)
            }
        }
        if let results = self.results {
            for group in Self.group(
                results, bytes: budget, size: { $0.text.utf8.count + $0.memoId.utf8.count + 32 + 8 * $0.ranges.count })
            {
                var part = base
                part.results = group
                parts.append(part)
            }
        }
        for index in parts.indices {
            parts[index].chunk = index
            parts[index].chunks = parts.count
        }
        return parts
    }

    /// The whole answer from all its parts (any order), or nil while parts are missing or they
    /// do not belong together. An ack that is not split is returned as it is.
    public static func reassembled(_ parts: [MemoAck]) -> MemoAck? {
        guard let first = parts.first else { return nil }
        guard let count = first.chunks else { return parts.count == 1 ? first : nil }
        let ordered = parts.sorted { ($0.chunk ?? 0) < ($1.chunk ?? 0) }
        guard ordered.count == count, ordered.map(\.chunk) == Array(0..<count).map(Optional.some),
            ordered.allSatisfy({ $0.cmdId == first.cmdId && $0.chunks == count })
        else { return nil }
        var whole = ordered[0]
        whole.chunk = nil
        whole.chunks = nil
        for part in ordered.dropFirst() {
            if let export = part.export { whole.export = (whole.export ?? "") + export }
            if let files = part.files { whole.files = (whole.files ?? []) + files }
            if let results = part.results { whole.results = (whole.results ?? []) + results }
        }
        return whole
    }

    /// `text` in pieces of at most `bytes` UTF-8 bytes, cut between scalars.
    private static func split(_ text: String, bytes: Int) -> [String] {
        let utf8 = Array(text.utf8)
        var pieces: [String] = []
        var start = 0
        while start < utf8.count {
            var end = min(start + bytes, utf8.count)
            // Back up over continuation bytes (10xxxxxx) so no scalar is cut in two.
            while end < utf8.count, end > start + 1, utf8[end] & 0xC0 == 0x80 { end -= 1 }
            pieces.append(String(decoding: utf8[start..<end], as: UTF8.self))
            start = end
        }
        return pieces.isEmpty ? [""] : pieces
    }

    /// `items` in consecutive groups whose estimated sizes add up to at most `bytes` each.
    private static func group<T>(_ items: [T], bytes: Int, size: (T) -> Int) -> [[T]] {
        var groups: [[T]] = [[]]
        var used = 0
        for item in items {
            let itemSize = size(item)
            if used + itemSize > bytes, !groups[groups.count - 1].isEmpty {
                groups.append([])
                used = 0
            }
            groups[groups.count - 1].append(item)
            used += itemSize
        }
        return groups
    }
}
