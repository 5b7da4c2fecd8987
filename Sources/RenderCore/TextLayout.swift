/// Lays text out left to right with line wrapping and renders its coverage.
///
/// Runs of ASCII letters and digits wrap as words; every other character (kana, kanji,
/// punctuation) may break anywhere, as Japanese text does. `\n` starts a new line. Single-line
/// and centred text stop at the first line's end and show "…" there when more follows.
enum TextLayout {
    /// The coverage of `text` in a `width`×`height` alpha image, `pixelsPerPoint` pixels per point.
    static func render(_ text: TextContent, font: FontFace, width: Int, height: Int, pixelsPerPoint: Double) throws
        -> Image
    {
        var mask = try Image(width: width, height: height, channels: 1)
        let pixels = max(1, Int((text.fontSize * pixelsPerPoint).rounded()))
        let inset = text.inset * pixelsPerPoint
        let limit = Double(width) - inset
        let (lineHeight, ascender) = font.lineMetrics(pixels: pixels)
        var penX = inset
        var baseline = inset + ascender
        if text.singleLine || text.centred {
            let line = Self.firstLine(
                text.string, font: font, pixels: pixels, bold: text.bold, from: inset, limit: limit)
            var shift = 0.0
            if text.centred, let last = line.last {
                shift = (limit - (last.1 + last.0.advance)) / 2
                baseline = (Double(height) - lineHeight) / 2 + ascender
            }
            for (glyph, x) in line {
                draw(glyph, at: Int((x + shift).rounded()), baseline: Int(baseline.rounded()), into: &mask)
            }
            return mask
        }
        for unit in units(text.string) {
            if unit == ["\n"] {
                penX = inset
                baseline += lineHeight
                continue
            }
            let glyphs = unit.compactMap { font.glyph($0, pixels: pixels, bold: text.bold) }
            let unitWidth = glyphs.reduce(0) { $0 + $1.advance }
            if penX + unitWidth > limit, penX > inset {
                penX = inset
                baseline += lineHeight
                if unit == [" "] { continue }
            }
            for glyph in glyphs {
                draw(glyph, at: Int(penX.rounded()), baseline: Int(baseline.rounded()), into: &mask)
                penX += glyph.advance
            }
        }
        return mask
    }

    /// The glyphs of the first line and their pen positions: every glyph up to `limit`, or, when
    /// the text goes on past it (or past a `\n`), as many as leave room for a final "…".
    static func firstLine(
        _ string: String, font: FontFace, pixels: Int, bold: Bool = false, from start: Double, limit: Double
    )
        -> [(FontFace.Glyph, Double)]
    {
        var placed: [(FontFace.Glyph, Double)] = []
        var penX = start
        var truncated = false
        for scalar in string.unicodeScalars {
            if scalar == "\n" {
                truncated = true
                break
            }
            guard let glyph = font.glyph(scalar, pixels: pixels, bold: bold) else { continue }
            if penX + glyph.advance > limit {
                truncated = true
                break
            }
            placed.append((glyph, penX))
            penX += glyph.advance
        }
        guard truncated, let ellipsis = font.glyph("…", pixels: pixels, bold: bold) else { return placed }
        // Back off until the ellipsis fits, and past blank glyphs ("milk …" reads as "milk…").
        while let last = placed.last, last.1 + last.0.advance + ellipsis.advance > limit || last.0.width == 0 {
            placed.removeLast()
        }
        let endX = placed.last.map { $0.1 + $0.0.advance } ?? start
        if endX + ellipsis.advance <= limit { placed.append((ellipsis, endX)) }
        return placed
    }

    /// Splits text into wrap units: ASCII words, or single other characters.
    static func units(_ string: String) -> [[Unicode.Scalar]] {
        var result: [[Unicode.Scalar]] = []
        var word: [Unicode.Scalar] = []
        for scalar in string.unicodeScalars {
            if scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                word.append(scalar)
                continue
            }
            if !word.isEmpty { result.append(word) }
            word = []
            result.append([scalar])
        }
        if !word.isEmpty { result.append(word) }
        return result
    }

    private static func draw(_ glyph: FontFace.Glyph, at x: Int, baseline: Int, into mask: inout Image) {
        let left = x + glyph.left
        let top = baseline - glyph.top
        for gy in 0..<glyph.height {
            let y = top + gy
            if y < 0 || y >= mask.height { continue }
            for gx in 0..<glyph.width {
                let px = left + gx
                if px < 0 || px >= mask.width { continue }
                let i = y * mask.width + px
                mask.bytes[i] = max(mask.bytes[i], glyph.coverage[gy * glyph.width + gx])
            }
        }
    }
}
