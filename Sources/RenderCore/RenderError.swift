/// Why RenderCore refused an input or could not finish an operation.
public struct RenderError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem it was; new codes can be added without breaking callers.
    public struct Code: RawRepresentable, Sendable, Hashable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// A width, height or channel count that is zero, negative, huge or inconsistent.
        public static let invalidSize = Code(rawValue: "invalid_size")
        /// A parameter outside its domain: a negative or non-finite radius, a NaN coordinate.
        public static let invalidParameter = Code(rawValue: "invalid_parameter")
        /// A PNG that libpng could not read (unreadable, truncated, corrupt).
        public static let badPNG = Code(rawValue: "bad_png")
        /// libpng could not write the PNG.
        public static let pngWriteFailed = Code(rawValue: "png_write_failed")
        /// A JPEG that libjpeg-turbo could not read or write.
        public static let jpegFailed = Code(rawValue: "jpeg_failed")
        /// A font that FreeType could not load, or a glyph it could not render.
        public static let fontFailed = Code(rawValue: "font_failed")
    }

    public var code: Code
    /// A short description of what was being done and with which values.
    public var context: String

    public init(_ code: Code, _ context: String = "") {
        self.code = code
        self.context = context
    }

    public var description: String {
        self.context.isEmpty ? self.code.rawValue : "\(self.code.rawValue): \(self.context)"
    }
}
