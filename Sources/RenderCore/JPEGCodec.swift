import CTurboJPEG

/// JPEG through libjpeg-turbo's TurboJPEG API, which reports errors as return codes (with a
/// message from `tjGetErrorStr2`), so bad input is an error, never a `longjmp` or a crash.
///
/// JPEG has no alpha: encoding takes the colour channels of a premultiplied RGBA image as they
/// are (an opaque frame's pixels, or the image composited over black); decoding gives an
/// opaque image.
public final class JPEGEncoder {
    /// The quality (1…100) frames are encoded at unless told otherwise; chosen by measurement
    /// (benchmarks/README.md, "view encoder").
    public static let defaultQuality = 85

    private let handle: tjhandle

    /// Wraps `tjInitCompress`.
    /// - Throws: ``RenderError`` `jpegFailed` when libjpeg-turbo cannot make a compressor.
    public init() throws {
        guard let handle = tjInitCompress() else {
            throw RenderError(.jpegFailed, "tjInitCompress: \(String(cString: tjGetErrorStr2(nil)))")
        }
        self.handle = handle
    }

    /// Wraps `tjDestroy`.
    deinit {
        tjDestroy(self.handle)
    }

    /// Encodes a four-channel image as a baseline JPEG with 4:2:0 chroma subsampling.
    /// Wraps `tjCompress2` (into a buffer sized by `tjBufSize`, never reallocated).
    /// - Throws: ``RenderError`` `invalidParameter` for a one-channel image or a quality outside
    ///   1…100, `jpegFailed` when libjpeg-turbo reports an error.
    public func encode(_ image: Image, quality: Int = JPEGEncoder.defaultQuality) throws -> [UInt8] {
        guard image.channels == 4 else { throw RenderError(.invalidParameter, "JPEG needs an RGBA image") }
        guard (1...100).contains(quality) else {
            throw RenderError(.invalidParameter, "JPEG quality \(quality) outside 1...100")
        }
        let width = Int32(image.width)
        let height = Int32(image.height)
        let bound = Int(tjBufSize(width, height, Int32(TJSAMP_420.rawValue)))
        var size = UInt(bound)
        var status: Int32 = 0
        // Only the `size` bytes written are kept: the buffer is not zeroed first.
        let output = [UInt8](unsafeUninitializedCapacity: bound) { out, count in
            status = image.bytes.withUnsafeBufferPointer { pixels in
                var destination: UnsafeMutablePointer<UInt8>? = out.baseAddress
                return tjCompress2(
                    self.handle, pixels.baseAddress, width, width * 4, height, Int32(TJPF_RGBX.rawValue),
                    &destination, &size, Int32(TJSAMP_420.rawValue), Int32(quality), TJFLAG_NOREALLOC)
            }
            count = status == 0 ? Int(size) : 0
        }
        guard status == 0 else {
            throw RenderError(.jpegFailed, "tjCompress2: \(String(cString: tjGetErrorStr2(self.handle)))")
        }
        return output
    }
}

/// Reading JPEGs back: what tests and benchmarks check frames with.
public enum JPEGCodec {
    /// Decodes a JPEG into an opaque RGBA image, checking its size before allocating.
    /// Wraps `tjInitDecompress`, `tjDecompressHeader3`, `tjDecompress2` and `tjDestroy`.
    /// - Throws: ``RenderError`` `jpegFailed` for data that is not a readable JPEG,
    ///   `invalidSize` for an image larger than ``Image`` accepts.
    public static func decode(_ data: [UInt8]) throws -> Image {
        guard let handle = tjInitDecompress() else {
            throw RenderError(.jpegFailed, "tjInitDecompress: \(String(cString: tjGetErrorStr2(nil)))")
        }
        defer { tjDestroy(handle) }
        var width: Int32 = 0
        var height: Int32 = 0
        var subsampling: Int32 = 0
        var colorspace: Int32 = 0
        let read = data.withUnsafeBufferPointer { jpeg in
            tjDecompressHeader3(
                handle, jpeg.baseAddress, UInt(jpeg.count), &width, &height, &subsampling, &colorspace)
        }
        guard read == 0 else {
            throw RenderError(.jpegFailed, "tjDecompressHeader3: \(String(cString: tjGetErrorStr2(handle)))")
        }
        var image = try Image(width: Int(width), height: Int(height))
        let status = image.bytes.withUnsafeMutableBufferPointer { pixels in
            data.withUnsafeBufferPointer { jpeg in
                tjDecompress2(
                    handle, jpeg.baseAddress, UInt(jpeg.count), pixels.baseAddress, width, width * 4, height,
                    Int32(TJPF_RGBA.rawValue), 0)
            }
        }
        guard status == 0 else {
            throw RenderError(.jpegFailed, "tjDecompress2: \(String(cString: tjGetErrorStr2(handle)))")
        }
        return image
    }
}
