extension BlurStage {
    /// Blurs one group of lines with a ``PeakedBox`` and `times` extended boxes behind a clamp,
    /// in one sweep, and stages the rounded bytes at `out` (64 bytes apart).
    ///
    /// The clamp costs no padding: the ring starts out holding what a line of the first pixel
    /// repeated forever would leave in it, and after the last pixel the sweep keeps pushing the
    /// last one until every box has caught up (``BoxChain``).
    func sweep(
        _ box: ExtendedBox, times: Int, peak: PeakedBox, _ group: UnsafePointer<SIMD16<UInt8>>,
        ring: UnsafeMutablePointer<SIMD16<Float>>, to out: UnsafeMutableRawPointer
    ) {
        typealias Three = ChainBox<ChainBox<ChainBox<ChainEnd>>>
        switch times {
        case 3: sweep(Three.self, box, peak, group, ring, out)
        case 4: sweep(ChainBox<Three>.self, box, peak, group, ring, out)
        case 5: sweep(ChainBox<ChainBox<Three>>.self, box, peak, group, ring, out)
        case 6: sweep(ChainBox<ChainBox<ChainBox<Three>>>.self, box, peak, group, ring, out)
        // The ring holds `times` boxes' slots; a longer chain would run past it.
        default: preconditionFailure("\(times) extended boxes; BlurKernel allows 3 to 6")
        }
    }

    /// Pushes input positions 1 ..< length, then the last pixel; the chain's output for the
    /// input pushed at e is line position e − delay, delay = the stages' total half-width.
    /// Never inlined, so each chain gets its own loop with its sums in registers.
    @inline(never)
    private func sweep<Chain: BoxChain>(
        _: Chain.Type, _ box: ExtendedBox, _ peak: PeakedBox, _ group: UnsafePointer<SIMD16<UInt8>>,
        _ ring: UnsafeMutablePointer<SIMD16<Float>>, _ out: UnsafeMutableRawPointer
    ) {
        let taps = BoxTaps(box)
        let delay = Chain.count * (box.l + 1) + peak.box.l + 1
        var cascade = Cascade<Chain>(ring: ring, taps: taps, peak: peak)
        cascade.settle(on: Self.floats(group[0]))
        let scale = 1 / (0..<Chain.count).reduce(peak.weight) { acc, _ in acc * box.weight }
        let loaded = min(length, delay)
        var e = 1
        while e < loaded {
            _ = cascade.push(Self.floats(group[e]))
            e &+= 1
        }
        while e < length {
            stage(cascade.push(Self.floats(group[e])), scale: scale, to: out + 64 &* (e &- delay))
            e &+= 1
        }
        let last = Self.floats(group[length - 1])
        while e < delay {
            _ = cascade.push(last)
            e &+= 1
        }
        while e < length &+ delay {
            stage(cascade.push(last), scale: scale, to: out + 64 &* (e &- delay))
            e &+= 1
        }
    }

    /// Bytes as Float lanes (`vpmovzxbd` and `vcvtdq2ps` once specialized; the generic SIMD
    /// conversions are out-of-line calls).
    @inline(__always)
    private static func floats(_ bytes: SIMD16<UInt8>) -> SIMD16<Float> {
        var lanes = SIMD16<Float>()
        for k in 0..<16 { lanes[k] = Float(bytes[k]) }
        return lanes
    }

    /// Scales sums to bytes, rounding to nearest, and stages them: one multiply-add of
    /// 1.5·2^23 leaves the rounded value in the low mantissa byte. No clamp is needed: every
    /// box weight is positive (0 ≤ α < 1), so each output is a weighted mean of bytes, off by
    /// float rounding of the order of 10⁻⁴ at most.
    @inline(__always)
    private func stage(_ sum: SIMD16<Float>, scale: Float, to target: UnsafeMutableRawPointer) {
        let words = unsafeBitCast(
            SIMD16<Float>(repeating: 12_582_912).addingProduct(sum, scale), to: SIMD16<UInt32>.self)
        store(SIMD16(lowHalf: Self.lowBytes(words.lowHalf), highHalf: Self.lowBytes(words.highHalf)), to: target)
    }

    /// The low byte of each lane: a constant shuffle per 8 lanes (the generic truncating
    /// conversion may be left as an out-of-line call, and one 64-byte shuffle becomes a chain of
    /// byte inserts).
    @inline(__always)
    private static func lowBytes(_ words: SIMD8<UInt32>) -> SIMD8<UInt8> {
        let b = unsafeBitCast(words, to: SIMD32<UInt8>.self)
        return SIMD8(b[0], b[4], b[8], b[12], b[16], b[20], b[24], b[28])
    }
}

/// A peaked stage and a chain, and their positions in their rings: the chain's ring first,
/// then the peaked stage's 2d slots.
private struct Cascade<Chain: BoxChain> {
    var chain = Chain()
    private var slot: UnsafeMutablePointer<SIMD16<Float>>
    private let ring: UnsafeMutablePointer<SIMD16<Float>>
    private let end: UnsafeMutablePointer<SIMD16<Float>>
    private let taps: BoxTaps
    private var peak: PeakStage

    init(ring: UnsafeMutablePointer<SIMD16<Float>>, taps: BoxTaps, peak: PeakedBox) {
        self.ring = ring
        self.slot = ring
        self.end = ring + taps.slots * Chain.count
        self.taps = taps
        self.peak = PeakStage(peak, ring: end)
    }

    /// Fills both rings and all sums as if the line had held `value` forever.
    mutating func settle(on value: SIMD16<Float>) {
        peak.settle(on: value)
        chain.settle(on: value * peak.weight, ring: ring, stride: Chain.count, taps)
    }

    @inline(__always)
    mutating func push(_ value: SIMD16<Float>) -> SIMD16<Float> {
        let output = chain.push(peak.push(value), slot, taps)
        slot += Chain.count
        if slot == end { slot = ring }
        return output
    }
}

/// A ``PeakedBox`` as a running sum: a box of radius l (d = l + 1) pushed `x[e]` outputs
/// position c = e − d as `S + (α − 1)·x[e − 2d] + α·x[e] + centre·x[c]`, the ring of 2d slots
/// holding `x[e − 2d … e − 1]`; `x[c]` sits half the ring ahead of the slot being replaced.
private struct PeakStage {
    private var sum = SIMD16<Float>()
    private var slot: UnsafeMutablePointer<SIMD16<Float>>
    private var middle: UnsafeMutablePointer<SIMD16<Float>>
    private let ring: UnsafeMutablePointer<SIMD16<Float>>
    private let end: UnsafeMutablePointer<SIMD16<Float>>
    private let alpha: Float
    private let alphaMinusOne: Float
    private let centre: Float
    let weight: Float

    init(_ peak: PeakedBox, ring: UnsafeMutablePointer<SIMD16<Float>>) {
        let half = peak.box.l + 1
        self.ring = ring
        self.end = ring + 2 * half
        self.slot = ring
        self.middle = ring + half
        alpha = peak.box.alpha
        alphaMinusOne = peak.box.alpha - 1
        centre = peak.centre
        weight = peak.weight
    }

    mutating func settle(on value: SIMD16<Float>) {
        ring.update(repeating: value, count: end - ring)
        sum = value * Float(end - ring)
    }

    @inline(__always)
    mutating func push(_ value: SIMD16<Float>) -> SIMD16<Float> {
        let leaving = slot.pointee
        let output = sum.addingProduct(alphaMinusOne, leaving).addingProduct(alpha, value)
            .addingProduct(centre, middle.pointee)
        slot.pointee = value
        sum += value - leaving
        slot += 1
        if slot == end { slot = ring }
        middle += 1
        if middle == end { middle = ring }
        return output
    }
}
