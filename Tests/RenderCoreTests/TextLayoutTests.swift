import Testing

@testable import RenderCore

/// Single-line text, as a minimized memo's strip shows it.
@Suite struct TextLayoutTests {
    static let long = "買い物メモ：牛乳、卵、パン。Buy milk today"
    static let (width, height, inset) = (120, 60, 6.0)

    static func mask(_ text: TextContent, font: FontFace) throws -> Image {
        try TextLayout.render(text, font: font, width: Self.width, height: Self.height, pixelsPerPoint: 1)
    }

    /// The lowest row with any ink.
    static func lastInkedRow(_ image: Image) -> Int {
        (0..<image.height).last { y in (0..<image.width).contains { image.bytes[y * image.width + $0] > 0 } } ?? -1
    }

    @Test func singleLineTextStaysOnTheFirstLineAndEndsInAnEllipsisWhenItGoesOn() throws {
        let font = try FontFace.systemJapanese()
        let (lineHeight, _) = font.lineMetrics(pixels: 12)
        let wrapped = try Self.mask(TextContent(string: Self.long, fontSize: 12, inset: Self.inset), font: font)
        let single = try Self.mask(
            TextContent(string: Self.long, fontSize: 12, inset: Self.inset, singleLine: true), font: font)
        #expect(Double(Self.lastInkedRow(wrapped)) > Self.inset + lineHeight, "wrapped text goes on below")
        #expect(Double(Self.lastInkedRow(single)) < Self.inset + lineHeight, "one line only")
        let limit = Double(Self.width) - Self.inset
        let line = TextLayout.firstLine(Self.long, font: font, pixels: 12, from: Self.inset, limit: limit)
        let ellipsis = try #require(font.glyph("…", pixels: 12))
        let last = try #require(line.last)
        #expect(last.0.coverage == ellipsis.coverage && last.0.advance == ellipsis.advance)
        #expect(last.1 + last.0.advance <= limit)
        #expect(line.count > 3, "the line is filled before the ellipsis")
    }

    @Test func singleLineTextThatFitsIsDrawnAsItIsWithNoEllipsis() throws {
        let font = try FontFace.systemJapanese()
        let plain = try Self.mask(TextContent(string: "牛乳 milk", fontSize: 12, inset: Self.inset), font: font)
        let single = try Self.mask(
            TextContent(string: "牛乳 milk", fontSize: 12, inset: Self.inset, singleLine: true), font: font)
        #expect(single.bytes == plain.bytes)
    }

    @Test func aLineBreakEndsASingleLineWithAnEllipsis() throws {
        let font = try FontFace.systemJapanese()
        let line = TextLayout.firstLine("牛乳\n卵", font: font, pixels: 12, from: 0, limit: 200)
        let ellipsis = try #require(font.glyph("…", pixels: 12))
        #expect(line.count == 3)
        #expect(line.last?.0.coverage == ellipsis.coverage)
    }
}
