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
        var bands: [PixelRect] = []
        let rowBytes = area.width * self.channels
        self.bytes.withUnsafeBytes { now in
            previous.bytes.withUnsafeBytes { before in
                for y in area.y..<(area.y + area.height) {
                    let offset = (y * self.width + area.x) * self.channels
                    guard memcmp(now.baseAddress! + offset, before.baseAddress! + offset, rowBytes) != 0 else {
                        continue
                    }
                    let (start, end) = Self.changedSpan(now, before, offset: offset, pixels: area.width, self.channels)
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

    /// The first and last pixel of a row that differ (the row is known to differ somewhere).
    private static func changedSpan(
        _ now: UnsafeRawBufferPointer, _ before: UnsafeRawBufferPointer, offset: Int, pixels: Int, _ channels: Int
    ) -> (Int, Int) {
        func differs(_ x: Int) -> Bool {
            memcmp(now.baseAddress! + offset + x * channels, before.baseAddress! + offset + x * channels, channels) != 0
        }
        var first = 0
        while first < pixels - 1, !differs(first) { first += 1 }
        var last = pixels - 1
        while last > first, !differs(last) { last -= 1 }
        return (first, last)
    }
}
