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
        // Every byte is copied over: not zeroed first.
        let bytes = [UInt8](unsafeUninitializedCapacity: rowBytes * rect.height) { target, count in
            self.bytes.withUnsafeBufferPointer { source in
                for row in 0..<rect.height {
                    let from = ((rect.y + row) * self.width + rect.x) * self.channels
                    (target.baseAddress! + row * rowBytes).initialize(from: source.baseAddress! + from, count: rowBytes)
                }
            }
            count = rowBytes * rect.height
        }
        return try Image(width: rect.width, height: rect.height, channels: self.channels, bytes: bytes)
    }
}
