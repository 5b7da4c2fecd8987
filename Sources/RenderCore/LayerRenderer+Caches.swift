import Glibc

/// What a renderer keeps across frames: offscreen buffers, drawn groups, text coverage and
/// blurred shadows.
extension LayerRenderer {
    struct Caches: Sendable {
        /// Byte arrays of finished offscreen groups, reused by the next group that fits.
        var offscreen: [[UInt8]] = []
        /// Laid-out text coverage in the layer's own pixels.
        var layouts: [LayoutKey: Image] = [:]
        /// Text coverage sampled onto canvas pixels, placed relative to the whole-pixel part of
        /// the layer's translation (so a memo moved by whole pixels reuses it).
        var sampled: [SampledKey: Mask] = [:]
        /// Blurred shadow alpha by the shape's coverage and σ: a shadow is the same wherever
        /// its shape moves by whole pixels, so unchanged and dragged layers skip the blur.
        var shadows: [ShadowKey: [UInt8]] = [:]
        var shadowBytes = 0
        /// Drawn offscreen groups, and the bytes they hold.
        var groups: [GroupKey: GroupEntry] = [:]
        var groupBytes = 0
        /// Groups drawn once: kept when drawn the same way again, so a layer that changes every
        /// frame (an animation, a drag) keeps reusing pooled buffers instead of filling the cache.
        var groupsSeen: Set<GroupKey> = []

        /// The most offscreen buffers kept (nested groups each hold one).
        static let offscreenLimit = 8
        /// The most cached entries; a full cache is emptied, which is cheap and keeps memory bounded.
        static let layoutLimit = 512
        static let sampledLimit = 2048
        static let shadowLimit = 256
        /// Shadows' bytes (shape coverage and blurred alpha): an animated shadow misses every frame.
        var shadowByteLimit = 64 << 20
        /// Kept groups' bytes (a board of memos needs a few MB); past it the cache is emptied.
        var groupByteLimit = 64 << 20
        static let groupsSeenLimit = 1024
    }

    /// A group's contents, its frame moved to the origin (its place is in `local`, the exact
    /// map from its bounds to the group's pixels), and the group's size.
    struct GroupKey: Hashable {
        let layer: Layer
        let local: AffineTransform
        let width: Int
        let height: Int
    }

    struct GroupEntry: Sendable {
        let image: Image
        /// The part of `image` with alpha > 0.
        let drawn: PixelRect
        /// The alpha of `drawn`, kept for a shadow taken from it.
        let alpha: Mask?
    }

    struct ShadowKey: Hashable {
        let width: Int
        let height: Int
        let sigma: Double
        let coverage: [UInt8]

        static func == (a: ShadowKey, b: ShadowKey) -> Bool {
            guard a.width == b.width, a.height == b.height, a.sigma == b.sigma, a.coverage.count == b.coverage.count
            else { return false }
            // memcmp: comparing element by element costs as much as hashing every byte.
            return a.coverage.withUnsafeBytes { x in
                b.coverage.withUnsafeBytes { y in x.isEmpty || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0 }
            }
        }

        /// Every 64th coverage byte: enough to tell shapes apart (equality compares them all)
        /// at a fraction of hashing every byte of every shadowed layer each frame.
        func hash(into hasher: inout Hasher) {
            hasher.combine(width)
            hasher.combine(height)
            hasher.combine(sigma)
            for index in stride(from: 0, to: coverage.count, by: 64) { hasher.combine(coverage[index]) }
        }
    }

    struct LayoutKey: Hashable {
        let text: TextContent
        let width: Int
        let height: Int
        let density: Double
    }

    struct SampledKey: Hashable {
        let text: TextContent
        let size: Size
        /// The linear part of the layer's map and the fractional part of its translation (in 1/256 px).
        let a: Double
        let b: Double
        let c: Double
        let d: Double
        let fx: Double
        let fy: Double
    }

    /// A cleared `width`×`height` RGBA image whose bytes come from the pool when one fits.
    func takeOffscreen(width: Int, height: Int, _ pass: Pass) throws -> Image {
        let count = width * height * 4
        var bytes = caches.withLock { caches -> [UInt8] in
            let fits = caches.offscreen.indices.filter { caches.offscreen[$0].capacity >= count }
            guard let best = fits.min(by: { caches.offscreen[$0].capacity < caches.offscreen[$1].capacity }) else {
                return []
            }
            return caches.offscreen.remove(at: best)
        }
        if bytes.capacity < count { pass.statistics.offscreenAllocations += 1 }
        bytes.removeAll(keepingCapacity: true)
        bytes.append(contentsOf: repeatElement(0, count: count))
        pass.statistics.offscreenGroups += 1
        pass.statistics.largestOffscreenPixels = max(pass.statistics.largestOffscreenPixels, width * height)
        return try Image(width: width, height: height, bytes: bytes)
    }

    /// Returns an offscreen image's bytes to the pool.
    func giveBack(_ image: Image) {
        caches.withLock { caches in
            if caches.offscreen.count < Caches.offscreenLimit { caches.offscreen.append(image.bytes) }
        }
    }

    /// The cached layout for `key`, or `make()`'s, stored.
    func layout(_ key: LayoutKey, _ make: () throws -> Image) rethrows -> Image {
        if let cached = caches.withLock({ $0.layouts[key] }) { return cached }
        let image = try make()
        caches.withLock { caches in
            if caches.layouts.count >= Caches.layoutLimit { caches.layouts.removeAll() }
            caches.layouts[key] = image
        }
        return image
    }

    func sampled(_ key: SampledKey) -> Mask? {
        caches.withLock { $0.sampled[key] }
    }

    func store(_ mask: Mask, for key: SampledKey) {
        caches.withLock { caches in
            if caches.sampled.count >= Caches.sampledLimit { caches.sampled.removeAll() }
            caches.sampled[key] = mask
        }
    }
}

extension LayerRenderer {
    /// The cached blurred alpha for `key`, or `make()`'s, stored.
    func shadow(_ key: ShadowKey, _ pass: Pass, _ make: () throws -> [UInt8]) rethrows -> [UInt8] {
        if let cached = caches.withLock({ $0.shadows[key] }) {
            pass.statistics.shadowCacheHits += 1
            return cached
        }
        pass.statistics.shadowCacheMisses += 1
        let blurred = try make()
        let bytes = key.coverage.capacity + blurred.capacity
        caches.withLock { caches in
            if caches.shadows.count >= Caches.shadowLimit || caches.shadowBytes + bytes > caches.shadowByteLimit {
                caches.shadows.removeAll()
                caches.shadowBytes = 0
            }
            caches.shadows[key] = blurred
            caches.shadowBytes += bytes
        }
        return blurred
    }
}

extension LayerRenderer {
    func group(_ key: GroupKey) -> GroupEntry? {
        caches.withLock { $0.groups[key] }
    }

    /// Keeps `entry` if `key` was drawn before and returns true; otherwise notes `key` and
    /// returns false (the caller gives the image back to the pool).
    func keep(_ entry: GroupEntry, for key: GroupKey) -> Bool {
        // Capacity, not count: a pooled buffer handed to a small group may be far larger.
        let bytes = entry.image.bytes.capacity + (entry.alpha?.bytes.capacity ?? 0)
        return caches.withLock { caches in
            guard caches.groupsSeen.remove(key) != nil else {
                if caches.groupsSeen.count >= Caches.groupsSeenLimit { caches.groupsSeen.removeAll() }
                caches.groupsSeen.insert(key)
                return false
            }
            if caches.groupBytes + bytes > caches.groupByteLimit {
                caches.groups.removeAll()
                caches.groupBytes = 0
            }
            caches.groups[key] = entry
            caches.groupBytes += bytes
            return true
        }
    }
}
