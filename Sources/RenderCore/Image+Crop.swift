extension Image {
    /// The pixels of `rect` as an image of their own (a damaged rectangle to encode by itself).
    ///
    /// - Throws: ``RenderError`` `invalidSize` when `rect` is empty or not inside the image.
    public func cropped(to rect: PixelRect) throws -> Image {
        guard rect.width > 0, rect.height > 0, rect.x >= 0, rect.y >= 0, rect.x + rect.width <= self.width,
            rect.y + rect.height <= self.height
        else {
            throw RenderError(
                .invalidSize,
                "crop \(rect.width)×\(rect.height) at (\(rect.x), \(rect.y)) outside the \(self.width)×\(self.height) image"
            )
        }
        let rowBytes = rect.width * self.channels
        var bytes = [UInt8](repeating: 0, count: rowBytes * rect.height)
        bytes.withUnsafeMutableBytes { target in
            self.bytes.withUnsafeBytes { source in
                for row in 0..<rect.height {
                    let from = ((rect.y + row) * self.width + rect.x) * self.channels
                    target.baseAddress!.advanced(by: row * rowBytes)
                        .copyMemory(from: source.baseAddress!.advanced(by: from), byteCount: rowBytes)
                }
            }
        }
        return try Image(width: rect.width, height: rect.height, channels: self.channels, bytes: bytes)
    }
}
