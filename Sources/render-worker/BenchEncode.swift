import RenderCore
import ServiceSupport

/// `render-worker bench-encode [--scene FILE] [--runs N]`: what encoding a frame for viewers
/// costs. Draws the frame the live worker draws for the scene (default `deploy/scenes/demo.json`,
/// 1600×1000), then, interleaved in every run so all see the same load, encodes it as JPEG at
/// quality 75, 85 and 90 and as PNG, encodes a small damaged rectangle (a 120×80 key) and
/// tiles of the frame (128 and 256 pixels square) both ways, and finds the damage between the
/// frame and a copy with that rectangle changed.
/// Prints one JSON line: the median ms and the bytes of each, the JPEGs' PSNR against the frame.
enum BenchEncode {
    static func run(_ options: inout Options) throws -> String {
        let runs = try options.int("runs", in: 1...1000, default: 11)
        let (size, root) = try DemoCommand.liveScene(options.string("scene") ?? "deploy/scenes/demo.json", memos: 0)
        let frame = try LayerRenderer(font: try FontFace.systemJapanese())
            .render(root, width: Int(size.width.rounded()), height: Int(size.height.rounded()), scale: 1)
        let rect = PixelRect(x: frame.width / 2, y: frame.height / 2, width: 120, height: 80)
        let patch = try frame.cropped(to: rect)
        var changed = frame
        for y in rect.y..<(rect.y + rect.height) {
            for x in rect.x..<(rect.x + rect.width) { changed.setPixel(x, y, RGBA8(200, 40, 40, 255)) }
        }
        let jpeg = try JPEGEncoder()
        var cases: [(name: String, encode: () throws -> [UInt8])] = [75, 85, 90].map { quality in
            ("jpeg_q\(quality)", { try jpeg.encode(frame, quality: quality) })
        }
        cases += [
            ("png", { try PNGCodec.encode(frame) }), ("jpeg_q85_rect", { try jpeg.encode(patch, quality: 85) }),
            ("png_rect", { try PNGCodec.encode(patch) }),
        ]
        // Tiles of the drawn frame (not flat colour) at the PNG limit and larger.
        for side in [128, 256] {
            let tile = try frame.cropped(
                to: PixelRect(x: frame.width / 4, y: frame.height / 4, width: side, height: side))
            cases += [
                ("jpeg_q85_tile\(side)", { try jpeg.encode(tile, quality: 85) }),
                ("png_tile\(side)", { try PNGCodec.encode(tile) }),
            ]
        }
        var times = [String: [Double]]()
        var bytes = [String: Int]()
        var psnr = [String: Double]()
        for run in 0..<runs {
            for (name, encode) in cases {
                let (data, ms) = try Self.timed(encode)
                times[name, default: []].append(ms)
                bytes[name] = data.count
                if run == 0, name.hasPrefix("jpeg"), !name.hasSuffix("rect"), !name.contains("tile") {
                    psnr[name] = frame.psnr(try JPEGCodec.decode(data))
                }
            }
            let (damage, ms) = Self.timed { changed.damage(since: frame) }
            precondition(damage == [rect], "damage \(damage)")
            times["damage", default: []].append(ms)
        }
        func median(_ name: String) -> Double { times[name]!.sorted()[runs / 2] }
        var fields = ["\"width\":\(frame.width)", "\"height\":\(frame.height)", "\"runs\":\(runs)"]
        for (name, _) in cases {
            fields.append("\"\(name)_ms\":\(median(name))")
            fields.append("\"\(name)_bytes\":\(bytes[name]!)")
            if let value = psnr[name] { fields.append("\"\(name)_psnr_db\":\((value * 100).rounded() / 100)") }
        }
        fields.append("\"damage_ms\":\(median("damage"))")
        return "{" + fields.joined(separator: ",") + "}"
    }

    static func timed<T>(_ body: () throws -> T) rethrows -> (T, Double) {
        let start = ContinuousClock.now
        let value = try body()
        let (seconds, attoseconds) = (ContinuousClock.now - start).components
        return (value, Double(seconds) * 1e3 + Double(attoseconds) * 1e-15)
    }
}
