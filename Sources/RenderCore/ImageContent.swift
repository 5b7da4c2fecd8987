/// An image a layer shows, like a CALayer's `contents`: drawn over the background colour,
/// scaled to fill the layer's bounds with its aspect ratio kept (`resizeAspectFill`), centred,
/// the overflow cut off at the bounds.
///
/// Layers are compared and hashed every frame (the renderer's group cache keys on them), so the
/// image's checksum is computed once here and stands for the pixels.
public struct ImageContent: Sendable, Hashable {
    public let image: Image
    private let checksum: String

    /// - Throws: ``RenderError`` (`invalidSize`) for a one-channel image (a mask, not a picture).
    public init(_ image: Image) throws {
        guard image.channels == 4 else {
            throw RenderError(.invalidSize, "layer contents need an RGBA image, got \(image.channels) channel(s)")
        }
        self.image = image
        self.checksum = image.checksum
    }

    public static func == (a: ImageContent, b: ImageContent) -> Bool {
        a.checksum == b.checksum && a.image == b.image
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(self.checksum)
    }

    /// Maps points of `bounds` (the layer's own coordinates) to the image's pixels, so that the
    /// image covers the bounds: scaled by the larger of the two ratios, centred.
    func fillTransform(_ bounds: Rect) -> AffineTransform {
        let (w, h) = (Double(self.image.width), Double(self.image.height))
        let pointsPerPixel = max(bounds.width / w, bounds.height / h)
        let (dx, dy) = ((bounds.width - w * pointsPerPixel) / 2, (bounds.height - h * pointsPerPixel) / 2)
        return AffineTransform.translation(-bounds.minX - dx, -bounds.minY - dy)
            .concatenating(.scale(1 / pointsPerPixel, 1 / pointsPerPixel))
    }

    /// The premultiplied pixel at image point `p` (pixel centres at +0.5), bilinear between the
    /// four nearest pixels, the edge pixels repeated beyond the image.
    @inline(__always)
    func sample(_ p: Point) -> SIMD4<Float> {
        let (width, height) = (self.image.width, self.image.height)
        let fx = min(max(p.x - 0.5, 0), Double(width - 1))
        let fy = min(max(p.y - 0.5, 0), Double(height - 1))
        let (x0, y0) = (Int(fx), Int(fy))
        let (x1, y1) = (min(x0 + 1, width - 1), min(y0 + 1, height - 1))
        let (u, v) = (Float(fx - Double(x0)), Float(fy - Double(y0)))
        return self.image.bytes.withUnsafeBufferPointer { bytes in
            @inline(__always) func at(_ x: Int, _ y: Int) -> SIMD4<Float> {
                let i = 4 * (y * width + x)
                return SIMD4(Float(bytes[i]), Float(bytes[i + 1]), Float(bytes[i + 2]), Float(bytes[i + 3]))
            }
            let top = at(x0, y0) * (1 - u) + at(x1, y0) * u
            let bottom = at(x0, y1) * (1 - u) + at(x1, y1) * u
            return top * (1 - v) + bottom * v
        }
    }
}
