import Foundation

/// The search form of a text, and the way back from it to the original.
///
/// Each grapheme cluster of the original is normalized on its own: NFKC (which also turns
/// full-width ASCII and half-width katakana into their usual forms), then lower case, then
/// katakana folded to hiragana. So `ＡＢＣ` finds `abc`, and `トウキョウ` and `ﾄｳｷｮｳ` find
/// `とうきょう`. Working per cluster lets every normalized scalar name the original scalars it
/// came from, which is how match ranges are reported in the original text.
struct SearchText {
    /// The normalized text, one scalar at a time.
    let scalars: [Unicode.Scalar]
    /// For each normalized scalar, the original scalar offsets `[start, end)` it came from.
    private let origins: [Range<Int>]

    init(_ text: String) {
        var scalars: [Unicode.Scalar] = []
        var origins: [Range<Int>] = []
        // At most one scalar per UTF-8 byte; counting the scalars would walk the text twice.
        scalars.reserveCapacity(text.utf8.count)
        origins.reserveCapacity(text.utf8.count)
        Self.forEachNormalized(text) { scalar, origin in
            scalars.append(scalar)
            origins.append(origin)
        }
        self.scalars = scalars
        self.origins = origins
    }

    /// The normalized form of `text` as UTF-8 (what the `norm` column holds).
    static func normalized(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        Self.forEachNormalized(text) { scalar, _ in
            UTF8.encode(scalar) { out.append($0) }
        }
        return out
    }

    /// Calls `emit` with each normalized scalar and the original scalar offsets it came from.
    ///
    /// A scalar from the common scripts (``isPlain(_:)``) followed by one that cannot extend it
    /// is a grapheme cluster on its own, normalized without building a `Character`; grapheme
    /// breaking (the costly part of iterating a `String`) only runs from the first other scalar,
    /// for one cluster at a time. Both paths start at a cluster boundary, so they cut the text
    /// exactly as iterating its `Character`s would. The scalars are decoded from the string's
    /// UTF-8 bytes in place: walking `unicodeScalars` by index decoded each scalar three times.
    @inline(__always)
    private static func forEachNormalized(_ text: String, _ emit: (Unicode.Scalar, Range<Int>) -> Void) {
        var contiguous = text
        contiguous.withUTF8 { bytes in
            var position = 0
            var offset = 0
            while position < bytes.count {
                let (value, length) = Self.scalar(in: bytes, at: position)
                let next = position + length
                if Self.isPlain(value), Self.startsCluster(bytes, at: next) {
                    emit(Self.foldPlain(value), offset..<(offset + 1))
                    offset += 1
                    position = next
                    continue
                }
                if let kana = Self.halfWidthKana(value, length, in: bytes, at: position) {
                    emit(Self.foldKatakana(kana.scalar), offset..<(offset + kana.scalars))
                    offset += kana.scalars
                    position += kana.bytes
                    continue
                }
                let character = text[text.utf8.index(text.utf8.startIndex, offsetBy: position)...].first!
                let width = Self.width(character)
                Self.normalize(character) { emit($0, offset..<(offset + width)) }
                offset += width
                position += character.utf8.count
            }
        }
    }

    /// The scalar whose UTF-8 encoding starts at `position` in `bytes` (a `String`'s, so valid
    /// UTF-8), and how many bytes it takes.
    @inline(__always)
    private static func scalar(in bytes: UnsafeBufferPointer<UInt8>, at position: Int) -> (value: UInt32, length: Int) {
        let lead = UInt32(bytes[position])
        if lead < 0x80 { return (lead, 1) }
        let second = UInt32(bytes[position + 1] & 0x3f)
        if lead < 0xe0 { return ((lead & 0x1f) << 6 | second, 2) }
        let third = UInt32(bytes[position + 2] & 0x3f)
        if lead < 0xf0 { return ((lead & 0x0f) << 12 | second << 6 | third, 3) }
        return ((lead & 0x07) << 18 | second << 12 | third << 6 | UInt32(bytes[position + 3] & 0x3f), 4)
    }

    /// Whether a cluster starts at byte `position` after a plain scalar or a half-width katakana
    /// cluster: the text ends there, or the scalar there cannot extend what came before.
    @inline(__always)
    private static func startsCluster(_ bytes: UnsafeBufferPointer<UInt8>, at position: Int) -> Bool {
        position == bytes.count || Self.cannotExtend(Self.scalar(in: bytes, at: position).value)
    }

    /// Scalars whose search form is one scalar computed without Unicode tables (ASCII except CR,
    /// which pairs with LF; full-width ASCII; kana; common CJK punctuation; CJK ideographs),
    /// none of which joins the scalar before it.
    @inline(__always)
    private static func isPlain(_ value: UInt32) -> Bool {
        switch value {
        case 0x00...0x0c, 0x0e...0x7f, 0xff01...0xff5e, 0x3001...0x3002, 0x300c...0x300f, 0x3041...0x3096,
            0x309d...0x309e, 0x30a1...0x30f6, 0x30fb...0x30fe, 0x4e00...0x9fff:
            return true
        default: return false
        }
    }

    /// Whether `scalar` always starts a new grapheme cluster after a plain scalar: nothing below
    /// U+0300 extends another (combining marks start there), nor does any plain scalar or
    /// half-width katakana letter (only the half-width voiced marks U+FF9E and U+FF9F extend).
    @inline(__always)
    private static func cannotExtend(_ value: UInt32) -> Bool {
        value < 0x300 || Self.isPlain(value) || (0xff66...0xff9d).contains(value)
    }

    /// NFKC of the half-width katakana U+FF66…U+FF9D: the full-width katakana.
    private static let halfWidthKatakana: [UInt16] = [
        0x30f2, 0x30a1, 0x30a3, 0x30a5, 0x30a7, 0x30a9, 0x30e3, 0x30e5, 0x30e7, 0x30c3, 0x30fc, 0x30a2, 0x30a4,
        0x30a6, 0x30a8, 0x30aa, 0x30ab, 0x30ad, 0x30af, 0x30b1, 0x30b3, 0x30b5, 0x30b7, 0x30b9, 0x30bb, 0x30bd,
        0x30bf, 0x30c1, 0x30c4, 0x30c6, 0x30c8, 0x30ca, 0x30cb, 0x30cc, 0x30cd, 0x30ce, 0x30cf, 0x30d2, 0x30d5,
        0x30d8, 0x30db, 0x30de, 0x30df, 0x30e0, 0x30e1, 0x30e2, 0x30e4, 0x30e6, 0x30e8, 0x30e9, 0x30ea, 0x30eb,
        0x30ec, 0x30ed, 0x30ef, 0x30f3,
    ]

    /// The NFKC + NFC form of a half-width katakana cluster starting with scalar `value` (`length`
    /// bytes) at byte `position` (a letter alone, or with ﾞ or ﾟ where they compose into one
    /// letter) and how many scalars and bytes it spans; nil for any other cluster, which then
    /// takes the general path.
    @inline(__always)
    private static func halfWidthKana(
        _ value: UInt32, _ length: Int, in bytes: UnsafeBufferPointer<UInt8>, at position: Int
    ) -> (scalar: Unicode.Scalar, scalars: Int, bytes: Int)? {
        guard value >= 0xff66 && value <= 0xff9d else { return nil }
        let kana = UInt32(Self.halfWidthKatakana[Int(value - 0xff66)])
        let next = position + length
        if Self.startsCluster(bytes, at: next) { return (Unicode.Scalar(kana)!, 1, length) }
        let (mark, markLength) = Self.scalar(in: bytes, at: next)
        guard Self.startsCluster(bytes, at: next + markLength) else { return nil }
        let composed: UInt32
        switch (mark, kana) {
        case (0xff9e, 0x30ab...0x30c2), (0xff9e, 0x30c4...0x30c8):
            // カ…ヂ and ツ…ト alternate letter and voiced letter; ッ (0x30c3) is never the base here.
            composed = kana + 1
        case (0xff9e, 0x30cf...0x30dd) where (kana - 0x30cf) % 3 == 0: composed = kana + 1
        case (0xff9f, 0x30cf...0x30dd) where (kana - 0x30cf) % 3 == 0: composed = kana + 2
        case (0xff9e, 0x30a6): composed = 0x30f4
        default: return nil
        }
        return (Unicode.Scalar(composed)!, 2, length + markLength)
    }

    /// The search form of a plain scalar: ASCII lower case, full-width ASCII to ASCII, katakana to hiragana.
    @inline(__always)
    private static func foldPlain(_ plain: UInt32) -> Unicode.Scalar {
        var value = plain
        if value >= 0xff01 && value <= 0xff5e { value -= 0xfee0 }
        if value >= 0x41 && value <= 0x5a { return Unicode.Scalar(value + 0x20)! }
        return Self.foldKatakana(Unicode.Scalar(value)!)
    }

    /// Every non-overlapping occurrence of `query` (already normalized), as original-text ranges.
    func ranges(of query: [Unicode.Scalar]) -> [Range<Int>] {
        guard !query.isEmpty, query.count <= self.scalars.count else { return [] }
        var found: [Range<Int>] = []
        var start = 0
        let last = self.scalars.count - query.count
        while start <= last {
            if self.scalars[start] == query[0] && self.scalars[start..<(start + query.count)].elementsEqual(query) {
                let range = self.origins[start].lowerBound..<self.origins[start + query.count - 1].upperBound
                if let previous = found.last, previous.upperBound > range.lowerBound {
                    found[found.count - 1] = previous.lowerBound..<max(previous.upperBound, range.upperBound)
                } else {
                    found.append(range)
                }
                start += query.count
            } else {
                start += 1
            }
        }
        return found
    }

    /// How many scalars `character` has (cheaper than `unicodeScalars.count` for the usual one).
    @inline(__always)
    private static func width(_ character: Character) -> Int {
        var width = 0
        for _ in character.unicodeScalars { width += 1 }
        return width
    }

    /// Calls `emit` with each scalar of one grapheme cluster's search form.
    ///
    /// A lone scalar that NFKC case folding leaves alone (`Changes_When_NFKC_Casefolded` is
    /// false: kana, kanji, most punctuation, lower-case letters) only needs the katakana fold
    /// and skips Foundation, which keeps writes and search-hit ranges cheap.
    @inline(__always)
    private static func normalize(_ character: Character, _ emit: (Unicode.Scalar) -> Void) {
        var iterator = character.unicodeScalars.makeIterator()
        if let first = iterator.next(), iterator.next() == nil {
            if first.value < 0x80 {
                emit(first.value >= 0x41 && first.value <= 0x5a ? Unicode.Scalar(first.value + 0x20)! : first)
                return
            }
            if first.value >= 0xff01 && first.value <= 0xff5e {
                // Full-width ASCII: NFKC is the ASCII character.
                let ascii = first.value - 0xfee0
                emit(Unicode.Scalar(ascii >= 0x41 && ascii <= 0x5a ? ascii + 0x20 : ascii)!)
                return
            }
            switch first.value {
            case 0x3001...0x3002, 0x300c...0x300f, 0x3041...0x3096, 0x309d...0x309e, 0x30fb...0x30fc, 0x4e00...0x9fff:
                emit(first)
                return
            case 0x30a1...0x30f6, 0x30fd...0x30fe:
                emit(Unicode.Scalar(first.value - 0x60)!)
                return
            default: break
            }
            if !first.properties.changesWhenNFKCCaseFolded {
                emit(Self.foldKatakana(first))
                return
            }
        }
        // Foundation's NFKC leaves a mapped half-width voiced mark (ﾞ → U+3099) uncomposed; NFC composes it.
        let nfkc = String(character).precomposedStringWithCompatibilityMapping.precomposedStringWithCanonicalMapping
        for scalar in nfkc.lowercased().unicodeScalars { emit(Self.foldKatakana(scalar)) }
    }

    /// Katakana ァ…ヶ and ヽヾ to the hiragana with the same sound; everything else unchanged.
    private static func foldKatakana(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        switch scalar.value {
        case 0x30a1...0x30f6, 0x30fd, 0x30fe: return Unicode.Scalar(scalar.value - 0x60)!
        default: return scalar
        }
    }
}
