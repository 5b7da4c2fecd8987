import CFreeType
import Synchronization

/// A FreeType face that renders anti-aliased glyph coverage, with a glyph cache.
///
/// fonts-noto-cjk's `NotoSansCJK-Regular.ttc` face 0 (Japanese) covers kana, kanji and Latin.
public final class FontFace: Sendable {
    /// One rendered glyph: coverage bitmap, its offset from the pen position, the advance.
    struct Glyph: Sendable {
        let width: Int
        let height: Int
        /// Pixels from the pen position to the bitmap's left edge.
        let left: Int
        /// Pixels from the baseline up to the bitmap's top edge.
        let top: Int
        let advance: Double
        let coverage: [UInt8]
    }

    private struct State: @unchecked Sendable {
        var library: FT_Library
        var face: FT_Face
        var cache: [GlyphKey: Glyph] = [:]
    }

    private struct GlyphKey: Hashable {
        let scalar: UInt32
        let pixels: Int
        let bold: Bool
    }

    private let state: Mutex<State>

    /// The font files tried by ``systemJapanese()``, in order.
    public static let japaneseFontPaths = [
        "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
        "/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf",
        "/usr/share/fonts/truetype/fonts-japanese-gothic.ttf",
    ]

    /// Opens face `index` of a font file. Wraps `FT_Init_FreeType` and `FT_New_Face`.
    /// - Throws: ``RenderError`` (`fontFailed`) when FreeType cannot open it.
    public init(path: String, index: Int = 0) throws {
        var library: FT_Library?
        guard FT_Init_FreeType(&library) == 0, let library else {
            throw RenderError(.fontFailed, "FT_Init_FreeType failed")
        }
        var face: FT_Face?
        let error = FT_New_Face(library, path, index, &face)
        guard error == 0, let face else {
            FT_Done_FreeType(library)
            throw RenderError(.fontFailed, "FT_New_Face(\(path), \(index)) failed with \(error)")
        }
        state = Mutex(State(library: library, face: face))
    }

    /// The first Japanese-capable system font that opens (fonts-noto-cjk or fonts-ipafont).
    public static func systemJapanese() throws -> FontFace {
        for path in japaneseFontPaths {
            if let face = try? FontFace(path: path) { return face }
        }
        throw RenderError(.fontFailed, "no Japanese font found in \(japaneseFontPaths)")
    }

    deinit {
        state.withLock { state in
            FT_Done_Face(state.face)
            FT_Done_FreeType(state.library)
        }
    }

    /// The line height and ascender in pixels at `pixels` per em. Wraps `FT_Set_Pixel_Sizes`.
    func lineMetrics(pixels: Int) -> (height: Double, ascender: Double) {
        state.withLock { state in
            FT_Set_Pixel_Sizes(state.face, 0, UInt32(pixels))
            let metrics = state.face.pointee.size.pointee.metrics
            return (Double(metrics.height) / 64, Double(metrics.ascender) / 64)
        }
    }

    /// The rendered glyph for a scalar (cached). Wraps `FT_Load_Char` with `FT_LOAD_RENDER`;
    /// `bold` thickens the outline first (`FT_GlyphSlot_Embolden`: the face has no bold
    /// style of its own).
    func glyph(_ scalar: Unicode.Scalar, pixels: Int, bold: Bool = false) -> Glyph? {
        let key = GlyphKey(scalar: scalar.value, pixels: pixels, bold: bold)
        return state.withLock { state -> Glyph? in
            if let cached = state.cache[key] { return cached }
            FT_Set_Pixel_Sizes(state.face, 0, UInt32(pixels))
            let flags = bold ? Int32(FT_LOAD_DEFAULT) | Int32(FT_LOAD_NO_BITMAP) : Int32(FT_LOAD_RENDER)
            guard FT_Load_Char(state.face, FT_ULong(scalar.value), flags) == 0 else { return nil }
            if bold {
                FT_GlyphSlot_Embolden(state.face.pointee.glyph)
                guard FT_Render_Glyph(state.face.pointee.glyph, FT_RENDER_MODE_NORMAL) == 0 else { return nil }
            }
            let slot = state.face.pointee.glyph.pointee
            let bitmap = slot.bitmap
            let (width, height) = (Int(bitmap.width), Int(bitmap.rows))
            var coverage = [UInt8](repeating: 0, count: width * height)
            if let buffer = bitmap.buffer {
                for y in 0..<height {
                    for x in 0..<width { coverage[y * width + x] = buffer[y * Int(bitmap.pitch) + x] }
                }
            }
            let glyph = Glyph(
                width: width, height: height, left: Int(slot.bitmap_left), top: Int(slot.bitmap_top),
                advance: Double(slot.advance.x) / 64, coverage: coverage)
            state.cache[key] = glyph
            return glyph
        }
    }
}
