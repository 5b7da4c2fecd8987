import Glibc

/// What a renderer keeps across frames: offscreen buffers, drawn groups, text coverage and
/// blurred shadows.
extension LayerRenderer {
    struct Caches: Sendable {
        /// Byte arrays of finished offscreen groups, reused by the next group that fits.
        var offscreen: [[UInt8]] = []
        /// The bytes of the last damaged window drawn, reused by the next: no fresh pages, and
        /// not cleared under a root that paints every pixel opaque.
        var window: [UInt8] = []
        /// Laid-out text coverage in the layer's own pixels.
        var layouts = FrameCache<LayoutKey, Image>(byteLimit: 16 << 20, entryLimit: 512)
        /// Text coverage sampled onto canvas pixels, placed relative to the whole-pixel part of
        /// the layer's translation (so a memo moved by whole pixels reuses it).
        var sampled = FrameCache<SampledKey, Mask>(byteLimit: 16 << 20, entryLimit: 2048)
        /// Blurred shadow alpha by the shape's coverage and σ: a shadow is the same wherever
        /// its shape moves by whole pixels, so unchanged and dragged layers skip the blur.
        /// Counted as the shape's coverage and the blurred alpha; an animated shadow misses every frame.
        var shadows = FrameCache<ShadowKey, [UInt8]>(byteLimit: 64 << 20, entryLimit: 256)
        /// Drawn offscreen groups (a board of memos needs a few MB).
        var groups = FrameCache<GroupKey, GroupEntry>(byteLimit: 64 << 20, entryLimit: 1024)
        /// Groups drawn once: kept when drawn the same way again, so a layer that changes every
        /// frame (an animation, a drag) keeps reusing pooled buffers instead of filling the cache.
        var groupsSeen: Set<GroupKey> = []

        /// The most offscreen buffers kept (nested groups each hold one).
        static let offscreenLimit = 8
        static let groupsSeenLimit = 1024

        /// Ends a frame: entries that recent frames did not use go (``FrameCache``).
        mutating func endFrame() {
            self.layouts.endFrame()
            self.sampled.endFrame()
            self.shadows.endFrame()
            self.groups.endFrame()
        }
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
        if let cached = caches.withLock({ $0.layouts.value(for: key) }) { return cached }
        let image = try make()
        caches.withLock { $0.layouts.store(image, for: key, bytes: image.bytes.capacity) }
        return image
    }

    func sampled(_ key: SampledKey) -> Mask? {
        caches.withLock { $0.sampled.value(for: key) }
    }

    func store(_ mask: Mask, for key: SampledKey) {
        caches.withLock { $0.sampled.store(mask, for: key, bytes: mask.bytes.capacity) }
    }
}

extension LayerRenderer {
    /// The cached blurred alpha for `key`, or `make()`'s, stored.
    func shadow(_ key: ShadowKey, _ pass: Pass, _ make: () throws -> [UInt8]) rethrows -> [UInt8] {
        if let cached = caches.withLock({ $0.shadows.value(for: key) }) {
            pass.statistics.shadowCacheHits += 1
            return cached
        }
        pass.statistics.shadowCacheMisses += 1
        let blurred = try make()
        let bytes = key.coverage.capacity + blurred.capacity
        caches.withLock { $0.shadows.store(blurred, for: key, bytes: bytes) }
        return blurred
    }
}

extension LayerRenderer {
    func group(_ key: GroupKey) -> GroupEntry? {
        caches.withLock { $0.groups.value(for: key) }
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
            caches.groups.store(entry, for: key, bytes: bytes)
            return true
        }
    }
}
