/// Anti-aliased scan conversion of polygons into coverage masks.
///
/// Each edge adds its signed area to an accumulation row (the method of font-rs / libart);
/// a prefix sum along each row gives the winding-weighted coverage, and min(1, |sum|) is the
/// non-zero rule: overlapping same-direction shapes saturate, a reversed subpath cancels to a hole.
public enum Rasterizer {
    /// The coverage of `path` (already in canvas pixels) on a `width`×`height` canvas.
    /// - Parameter threads: how many threads may share a large mask's rows (the bytes are the same).
    /// - Throws: ``RenderError`` (`invalidParameter`) for NaN or infinite coordinates.
    public static func fill(_ path: Path, width: Int, height: Int, threads: Int = 1) throws -> Mask {
        try fill(path, width: width, height: height, rows: nil, threads: threads)
    }

    /// The coverage of `path` within canvas rows `rows` (all when nil): each row's coverage
    /// depends only on the edges crossing it, so these rows are those of the whole mask.
    static func fill(_ path: Path, width: Int, height: Int, rows: Range<Int>?, threads: Int) throws -> Mask {
        guard path.isFinite else { throw RenderError(.invalidParameter, "path has a NaN or infinite coordinate") }
        let points = path.subpaths.joined()
        guard let first = points.first else { return .empty }
        var (minX, minY, maxX, maxY) = (first.x, first.y, first.x, first.y)
        for p in points {
            minX = min(minX, p.x)
            maxX = max(maxX, p.x)
            minY = min(minY, p.y)
            maxY = max(maxY, p.y)
        }
        guard var box = PixelRect(covering: minX, minY, maxX, maxY, width: width, height: height) else {
            return .empty
        }
        if let rows {
            guard
                let cut = box.intersection(
                    PixelRect(x: box.x, y: rows.lowerBound, width: box.width, height: rows.count))
            else { return .empty }
            box = cut
        }
        let (x0, y0, w, h) = (box.x, box.y, box.width, box.height)
        let stride = w + 2
        var accumulation = [Float](repeating: 0, count: stride * h)
        accumulation.withUnsafeMutableBufferPointer { acc in
            for polygon in path.subpaths {
                for i in polygon.indices {
                    let a = polygon[i]
                    let b = polygon[(i + 1) % polygon.count]
                    line(
                        from: Point(a.x - Double(x0), a.y - Double(y0)), to: Point(b.x - Double(x0), b.y - Double(y0)),
                        width: w, height: h, stride: stride, into: acc.baseAddress!)
                }
            }
        }
        let bytes = accumulation.withUnsafeBufferPointer { acc in
            [UInt8](unsafeUninitializedCapacity: w * h) { out, count in
                let (source, target) = (Pixels(acc.baseAddress!), Pixels(out.baseAddress!))
                // Each row's prefix sum reads only its own accumulation row.
                RowBands.run(0..<h, width: w, threads: threads) { rows in
                    for y in rows {
                        let (from, to) = (source.base + y * stride, target.base + y * w)
                        var sum: Float = 0
                        for x in 0..<w {
                            sum += from[x]
                            to[x] = (min(abs(sum), 1) * 255 + 0.5).truncatedByte
                        }
                    }
                }
                count = w * h
            }
        }
        return Mask(rect: PixelRect(x: x0, y: y0, width: w, height: h), bytes: bytes)
    }

    /// The coverage of the axis-aligned rectangle `minX…maxX` × `minY…maxY` (canvas pixels) on a
    /// `width`×`height` canvas: each pixel's overlap area, as ``fill(_:width:height:)`` gives
    /// for a rectangle path, without scanning edges (most layers are such rectangles).
    static func fillRect(
        minX: Double, minY: Double, maxX: Double, maxY: Double, width: Int, height: Int, threads: Int = 1
    ) -> Mask {
        guard let box = PixelRect(covering: minX, minY, maxX, maxY, width: width, height: height) else {
            return .empty
        }
        let (x0, y0, w, h) = (box.x, box.y, box.width, box.height)
        @Sendable func overlap(_ i: Int, _ lo: Double, _ hi: Double) -> Double {
            max(0, min(Double(i + 1), hi) - max(Double(i), lo))
        }
        let columns = (0..<w).map { overlap(x0 + $0, minX, maxX) }
        let bytes = [UInt8](unsafeUninitializedCapacity: w * h) { out, count in
            let target = Pixels(out.baseAddress!)
            RowBands.run(0..<h, width: w, threads: threads) { rows in
                for y in rows {
                    let row = overlap(y0 + y, minY, maxY)
                    let base = target.base + y * w
                    if row == 1, w > 2 {
                        // Whole rows: full coverage between the two edge columns.
                        base.update(repeating: 255, count: w)
                        base[0] = UInt8(columns[0] * 255 + 0.5)
                        base[w - 1] = UInt8(columns[w - 1] * 255 + 0.5)
                        continue
                    }
                    for x in 0..<w { base[x] = UInt8(min(row * columns[x], 1) * 255 + 0.5) }
                }
            }
            count = w * h
        }
        return Mask(rect: PixelRect(x: x0, y: y0, width: w, height: h), bytes: bytes)
    }

    /// The coverage of `path`, a rounded rectangle mapped without rotation or shear onto
    /// `minX…maxX` × `minY…maxY` (canvas pixels) with corners `cornerHeight` pixels tall, as
    /// ``fill(_:width:height:threads:)`` gives it: the rows between the corners are crossed only
    /// by the two vertical sides, the same way in each, so one of them is scanned and copied to
    /// the others; the corners' rows are scanned (a card's or a memo's shape is mostly such
    /// rows; scanning them all cost a float row per pixel row, zeroed, and a prefix sum).
    static func fillRoundedRect(
        _ path: Path, minX: Double, minY: Double, maxX: Double, maxY: Double, cornerHeight: Double, width: Int,
        height: Int, threads: Int = 1
    ) throws -> Mask {
        guard [minX, minY, maxX, maxY, cornerHeight].allSatisfy(\.isFinite),
            let box = PixelRect(covering: minX, minY, maxX, maxY, width: width, height: height)
        else { return try fill(path, width: width, height: height, threads: threads) }
        let (x0, y0, w, h) = (box.x, box.y, box.width, box.height)
        // Clamped to the canvas before they become rows.
        let first = max(y0, Int(min(max(minY + cornerHeight, 0), Double(height)).rounded(.up)))
        let end = min(y0 + h, Int(min(max(maxY - cornerHeight, 0), Double(height)).rounded(.down)))
        // Few straight rows: scanning the whole shape costs no more.
        guard end - first >= 4 else { return try fill(path, width: width, height: height, threads: threads) }
        // The top corners' rows and the first straight row; the bottom corners' rows.
        let top = try fill(path, width: width, height: height, rows: y0..<(first + 1), threads: threads)
        let bottom = try fill(path, width: width, height: height, rows: end..<(y0 + h), threads: threads)
        let bytes = [UInt8](unsafeUninitializedCapacity: w * h) { out, count in
            for y in y0..<(y0 + h) {
                let row = UnsafeMutableBufferPointer(rebasing: out[((y - y0) * w)..<((y - y0 + 1) * w)])
                row.initialize(repeating: 0)
                let (band, source) = y < end ? (top, min(y, first)) : (bottom, y)
                guard band.rect.y <= source, source < band.rect.y + band.rect.height else { continue }
                let from = max(x0, band.rect.x)
                let to = min(x0 + w, band.rect.x + band.rect.width)
                guard to > from else { continue }
                band.bytes.withUnsafeBufferPointer { scanned in
                    let at = (source - band.rect.y) * band.rect.width + from - band.rect.x
                    (row.baseAddress! + from - x0).update(from: scanned.baseAddress! + at, count: to - from)
                }
            }
            count = w * h
        }
        return Mask(rect: box, bytes: bytes)
    }

    /// Adds one edge's signed coverage; x is clamped into the row (area left of the canvas
    /// lands on column 0, where the prefix sum still carries it to the right).
    private static func line(
        from p0: Point, to p1: Point, width: Int, height: Int, stride: Int, into acc: UnsafeMutablePointer<Float>
    ) {
        if p0.y == p1.y { return }
        let (direction, top, bottom): (Double, Point, Point) = p0.y < p1.y ? (1, p0, p1) : (-1, p1, p0)
        let slope = (bottom.x - top.x) / (bottom.y - top.y)
        let limit = Double(width)
        var x = top.x
        if top.y >= Double(height) || bottom.y <= 0 { return }
        var yStart = 0
        if top.y < 0 {
            x -= top.y * slope
        } else {
            yStart = Int(top.y.rounded(.down))
        }
        let yEnd = Int(min(bottom.y, Double(height)).rounded(.up))
        if yStart >= yEnd { return }
        for y in yStart..<yEnd {
            let row = acc + y * stride
            let dy = min(Double(y + 1), bottom.y) - max(Double(y), top.y)
            let xNext = x + slope * dy
            let d = dy * direction
            let lo = min(max(min(x, xNext), 0), limit)
            let hi = min(max(max(x, xNext), 0), limit)
            let loFloor = lo.rounded(.down)
            let loIndex = Int(loFloor)
            let hiCeil = hi.rounded(.up)
            let hiIndex = Int(hiCeil)
            if hiIndex <= loIndex + 1 {
                let mid = 0.5 * (lo + hi) - loFloor
                row[loIndex] += Float(d - d * mid)
                row[loIndex + 1] += Float(d * mid)
            } else {
                let s = 1 / (hi - lo)
                let loFraction = lo - loFloor
                let a0 = 0.5 * s * (1 - loFraction) * (1 - loFraction)
                let hiFraction = hi - hiCeil + 1
                let am = 0.5 * s * hiFraction * hiFraction
                row[loIndex] += Float(d * a0)
                if hiIndex == loIndex + 2 {
                    row[loIndex + 1] += Float(d * (1 - a0 - am))
                } else {
                    let a1 = s * (1.5 - loFraction)
                    row[loIndex + 1] += Float(d * (a1 - a0))
                    for xi in (loIndex + 2)..<(hiIndex - 1) { row[xi] += Float(d * s) }
                    let a2 = a1 + Double(hiIndex - loIndex - 3) * s
                    row[hiIndex - 1] += Float(d * (1 - a2 - am))
                }
                row[hiIndex] += Float(d * am)
            }
            x = xNext
        }
    }
}
