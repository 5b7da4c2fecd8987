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
    /// exactly as iterating its `Character`s would.
    @inline(__always)
    private static func forEachNormalized(_ text: String, _ emit: (Unicode.Scalar, Range<Int>) -> Void) {
        let view = text.unicodeScalars
        var index = view.startIndex
        var offset = 0
        while index < view.endIndex {
            let scalar = view[index]
            let next = view.index(after: index)
            if Self.isPlain(scalar), next == view.endIndex || Self.cannotExtend(view[next]) {
                emit(Self.foldPlain(scalar), offset..<(offset + 1))
                offset += 1
                index = next
                continue
            }
            if let (kana, width) = Self.halfWidthKana(view, at: index) {
                emit(Self.foldKatakana(kana), offset..<(offset + width))
                offset += width
                index = view.index(index, offsetBy: width)
                continue
            }
            let character = Substring(view[index...]).first!
            let width = Self.width(character)
            Self.normalize(character) { emit($0, offset..<(offset + width)) }
            offset += width
            index = view.index(index, offsetBy: width)
        }
    }

    /// Scalars whose search form is one scalar computed without Unicode tables (ASCII except CR,
    /// which pairs with LF; full-width ASCII; kana; common CJK punctuation; CJK ideographs),
    /// none of which joins the scalar before it.
    @inline(__always)
    private static func isPlain(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
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
    private static func cannotExtend(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x300 || Self.isPlain(scalar) || (0xff66...0xff9d).contains(scalar.value)
    }

    /// NFKC of the half-width katakana U+FF66…U+FF9D: the full-width katakana.
    private static let halfWidthKatakana: [UInt16] = [
        0x30f2, 0x30a1, 0x30a3, 0x30a5, 0x30a7, 0x30a9, 0x30e3, 0x30e5, 0x30e7, 0x30c3, 0x30fc, 0x30a2, 0x30a4,
        0x30a6, 0x30a8, 0x30aa, 0x30ab, 0x30ad, 0x30af, 0x30b1, 0x30b3, 0x30b5, 0x30b7, 0x30b9, 0x30bb, 0x30bd,
        0x30bf, 0x30c1, 0x30c4, 0x30c6, 0x30c8, 0x30ca, 0x30cb, 0x30cc, 0x30cd, 0x30ce, 0x30cf, 0x30d2, 0x30d5,
        0x30d8, 0x30db, 0x30de, 0x30df, 0x30e0, 0x30e1, 0x30e2, 0x30e4, 0x30e6, 0x30e8, 0x30e9, 0x30ea, 0x30eb,
        0x30ec, 0x30ed, 0x30ef, 0x30f3,
    ]

    /// The NFKC + NFC form of a half-width katakana cluster at `index` (a letter alone, or with
    /// ﾞ or ﾟ where they compose into one letter) and how many scalars it spans; nil for any
    /// other cluster, which then takes the general path.
    @inline(__always)
    private static func halfWidthKana(
        _ view: String.UnicodeScalarView, at index: String.UnicodeScalarView.Index
    ) -> (Unicode.Scalar, Int)? {
        let value = view[index].value
        guard value >= 0xff66 && value <= 0xff9d else { return nil }
        let kana = UInt32(Self.halfWidthKatakana[Int(value - 0xff66)])
        let next = view.index(after: index)
        if next == view.endIndex || Self.cannotExtend(view[next]) { return (Unicode.Scalar(kana)!, 1) }
        let afterMark = view.index(after: next)
        guard afterMark == view.endIndex || Self.cannotExtend(view[afterMark]) else { return nil }
        switch (view[next].value, kana) {
        case (0xff9e, 0x30ab...0x30c2), (0xff9e, 0x30c4...0x30c8):
            // カ…ヂ and ツ…ト alternate letter and voiced letter; ッ (0x30c3) is never the base here.
            return (Unicode.Scalar(kana + 1)!, 2)
        case (0xff9e, 0x30cf...0x30dd) where (kana - 0x30cf) % 3 == 0: return (Unicode.Scalar(kana + 1)!, 2)
        case (0xff9f, 0x30cf...0x30dd) where (kana - 0x30cf) % 3 == 0: return (Unicode.Scalar(kana + 2)!, 2)
        case (0xff9e, 0x30a6): return (Unicode.Scalar(0x30f4)!, 2)
        default: return nil
        }
    }

    /// The search form of a plain scalar: ASCII lower case, full-width ASCII to ASCII, katakana to hiragana.
    @inline(__always)
    private static func foldPlain(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        var value = scalar.value
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
