import Glibc

/// Every memo's search form (the `norm` column) in memory, by rowid, for 1–2 character queries.
///
/// A trigram index cannot answer them, and scanning `norm` with `instr` in SQL costs about half
/// a microsecond per memo, so a query that matches nothing took 5 ms at 10 k memos. A byte
/// search over these finds the same candidates (a byte substring of UTF-8 is a character
/// substring) in a fraction of that. The store keeps it equal to the committed `norm` column:
/// it applies the changes of each batch it commits and reloads when another connection has
/// written the file (`PRAGMA data_version`).
struct NormalizedTexts {
    /// The `PRAGMA data_version` this copy reflects.
    var dataVersion: Int64
    /// Ascending.
    private var rowids: [Int64] = []
    /// `norms[i]` is the UTF-8 search form of the memo with rowid `rowids[i]`.
    private var norms: [[UInt8]] = []

    init(dataVersion: Int64) {
        self.dataVersion = dataVersion
    }

    var count: Int { self.rowids.count }

    /// Sets the search form of memo `rowid`; nil removes the memo.
    mutating func set(_ rowid: Int64, _ norm: [UInt8]?) {
        let index = self.index(of: rowid)
        let present = index < self.rowids.count && self.rowids[index] == rowid
        switch (present, norm) {
        case (true, let norm?): self.norms[index] = norm
        case (true, nil):
            self.rowids.remove(at: index)
            self.norms.remove(at: index)
        case (false, let norm?):
            self.rowids.insert(rowid, at: index)
            self.norms.insert(norm, at: index)
        case (false, nil): break
        }
    }

    /// Calls `visit` with the rowid of each memo whose search form contains `needle` (UTF-8),
    /// newest (highest rowid) first, until it returns false.
    func candidates(containing needle: [UInt8], _ visit: (Int64) throws -> Bool) rethrows {
        guard !needle.isEmpty else { return }
        try needle.withUnsafeBytes { needleBytes in
            for index in self.rowids.indices.reversed() {
                let found = self.norms[index].withUnsafeBytes { Self.contains($0, needleBytes) }
                if found, !(try visit(self.rowids[index])) { return }
            }
        }
    }

    /// Whether `haystack` contains `needle`: `memchr` for the needle's last byte (for any
    /// non-ASCII character a continuation byte, far rarer in Japanese text than its lead byte),
    /// then a comparison of the bytes before it. glibc's `memmem` sets up a shift table on
    /// every call, which cost more than the search itself on memo-sized texts.
    @inline(__always)
    private static func contains(_ haystack: UnsafeRawBufferPointer, _ needle: UnsafeRawBufferPointer) -> Bool {
        let length = needle.count
        guard haystack.count >= length, let base = haystack.baseAddress, let prefix = needle.baseAddress else {
            return false
        }
        let last = Int32(needle[length - 1])
        var position = length - 1
        while position < haystack.count {
            guard let hit = memchr(base + position, last, haystack.count - position) else { return false }
            let end = base.distance(to: UnsafeRawPointer(hit))
            if memcmp(base + (end - length + 1), prefix, length - 1) == 0 { return true }
            position = end + 1
        }
        return false
    }

    /// The first position whose rowid is not below `rowid` (new memos append at the end).
    private func index(of rowid: Int64) -> Int {
        if let last = self.rowids.last, last < rowid { return self.rowids.count }
        var low = 0
        var high = self.rowids.count
        while low < high {
            let middle = (low + high) / 2
            if self.rowids[middle] < rowid { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
