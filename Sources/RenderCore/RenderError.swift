import BusSchema

/// Why RenderCore refused an input or could not finish an operation.
public struct RenderError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem it was; new codes can be added without breaking callers.
    public typealias Code = ErrorCode<RenderError>

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

extension ErrorCode where Domain == RenderError {
    /// A width, height or channel count that is zero, negative, huge or inconsistent.
    public static var invalidSize: Self { Self(rawValue: "invalid_size") }
    /// A parameter outside its domain: a negative or non-finite radius, a NaN coordinate.
    public static var invalidParameter: Self { Self(rawValue: "invalid_parameter") }
    /// A PNG that libpng could not read (unreadable, truncated, corrupt).
    public static var badPNG: Self { Self(rawValue: "bad_png") }
    /// libpng could not write the PNG.
    public static var pngWriteFailed: Self { Self(rawValue: "png_write_failed") }
    /// A JPEG that libjpeg-turbo could not read or write.
    public static var jpegFailed: Self { Self(rawValue: "jpeg_failed") }
    /// A font that FreeType could not load, or a glyph it could not render.
    public static var fontFailed: Self { Self(rawValue: "font_failed") }
}
