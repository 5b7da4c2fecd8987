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
        scalars.reserveCapacity(text.unicodeScalars.count)
        origins.reserveCapacity(text.unicodeScalars.count)
        var offset = 0
        for character in text {
            let width = Self.width(character)
            Self.normalize(character) { scalar in
                scalars.append(scalar)
                origins.append(offset..<(offset + width))
            }
            offset += width
        }
        self.scalars = scalars
        self.origins = origins
    }

    /// The normalized form of `text` as a string (what the `norm` column holds).
    static func normalized(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for character in text { Self.normalize(character) { out.append($0) } }
        return String(out)
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
