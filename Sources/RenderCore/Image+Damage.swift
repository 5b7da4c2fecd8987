import Glibc

extension Image {
    /// The rectangles of pixels that differ from `previous`: bands of changed rows (rows within
    /// `joinGap` of each other share a band), each as wide as its changed columns. The whole
    /// image when there is no previous one of the same size; the bounding box of every change
    /// when there would be more than `maximumCount` bands; empty when nothing changed.
    ///
    /// Unchanged rows cost one `memcmp` each; changed ones are scanned from both ends only as
    /// far as their first and last differing pixel. Given `region` (inside the image), only its
    /// pixels are compared: a rectangle known to hold every change is trimmed to them.
    public func damage(
        since previous: Image?, within region: PixelRect? = nil, maximumCount: Int = 64, joinGap: Int = 8
    ) -> [PixelRect] {
        let whole = PixelRect(x: 0, y: 0, width: self.width, height: self.height)
        guard let previous, previous.width == self.width, previous.height == self.height,
            previous.channels == self.channels
        else { return [region ?? whole] }
        guard let area = (region ?? whole).clipped(width: self.width, height: self.height) else { return [] }
        return self.changes(from: previous, at: (0, 0), within: area, maximumCount: maximumCount, joinGap: joinGap)
    }

    /// The rectangles of pixels within `area` (inside this image) that differ from the same
    /// pixels of `other`, an image placed with its upper left corner at `origin` of this one
    /// that holds the whole area (with this image's channels), banded as
    /// ``damage(since:within:maximumCount:joinGap:)`` bands them.
    func changes(
        from other: Image, at origin: (x: Int, y: Int), within area: PixelRect, maximumCount: Int = 64,
        joinGap: Int = 8
    ) -> [PixelRect] {
        var bands: [PixelRect] = []
        let rowBytes = area.width * self.channels
        self.bytes.withUnsafeBytes { now in
            other.bytes.withUnsafeBytes { before in
                for y in area.y..<(area.y + area.height) {
                    let offset = (y * self.width + area.x) * self.channels
                    let otherOffset = ((y - origin.y) * other.width + area.x - origin.x) * self.channels
                    guard memcmp(now.baseAddress! + offset, before.baseAddress! + otherOffset, rowBytes) != 0 else {
                        continue
                    }
                    let (start, end) = Self.changedSpan(
                        now.baseAddress! + offset, before.baseAddress! + otherOffset, pixels: area.width,
                        self.channels)
                    let (first, last) = (area.x + start, area.x + end)
                    if var band = bands.last, y - (band.y + band.height) <= joinGap {
                        let right = max(band.x + band.width, last + 1)
                        band.x = min(band.x, first)
                        band.width = right - band.x
                        band.height = y + 1 - band.y
                        bands[bands.count - 1] = band
                    } else {
                        bands.append(PixelRect(x: first, y: y, width: last + 1 - first, height: 1))
                    }
                }
            }
        }
        guard bands.count > maximumCount, let top = bands.first, let bottom = bands.last else { return bands }
        let left = bands.map(\.x).min()!
        let right = bands.map { $0.x + $0.width }.max()!
        return [PixelRect(x: left, y: top.y, width: right - left, height: bottom.y + bottom.height - top.y)]
    }

    /// The first and last pixel of a row that differ (the row is known to differ somewhere),
    /// found 32 bytes at a time from each end, then 8, then 1 (a drag's rows often differ only
    /// in their middle).
    private static func changedSpan(
        _ now: UnsafeRawPointer, _ before: UnsafeRawPointer, pixels: Int, _ channels: Int
    ) -> (Int, Int) {
        func same<T: FixedWidthInteger>(_ offset: Int, _: T.Type) -> Bool {
            now.loadUnaligned(fromByteOffset: offset, as: T.self)
                == before.loadUnaligned(fromByteOffset: offset, as: T.self)
        }
        // Four words' differences or-ed, one test: the compiler joins them into vector
        // instructions (`all` of a SIMD mask is a call per chunk, not inlined).
        func same32(_ offset: Int) -> Bool {
            func difference(_ at: Int) -> UInt64 {
                now.loadUnaligned(fromByteOffset: at, as: UInt64.self)
                    ^ before.loadUnaligned(fromByteOffset: at, as: UInt64.self)
            }
            return difference(offset) | difference(offset + 8) | difference(offset + 16) | difference(offset + 24) == 0
        }
        let bytes = pixels * channels
        var first = 0
        while first + 32 <= bytes, same32(first) { first += 32 }
        while first + 8 <= bytes, same(first, UInt64.self) { first += 8 }
        while first < bytes - 1, same(first, UInt8.self) { first += 1 }
        var last = bytes - 1
        while last - 32 >= first, same32(last - 31) { last -= 32 }
        while last - 8 >= first, same(last - 7, UInt64.self) { last -= 8 }
        while last > first, same(last, UInt8.self) { last -= 1 }
        return (first / channels, last / channels)
    }
}
