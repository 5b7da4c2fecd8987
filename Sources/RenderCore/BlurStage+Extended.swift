extension BlurStage {
    /// Blurs one group of lines with `times` extended boxes behind a clamp, in one sweep, and
    /// stages the rounded bytes at `out` (64 bytes apart).
    ///
    /// The clamp costs no padding: the ring starts out holding what a line of the first pixel
    /// repeated forever would leave in it, and after the last pixel the sweep keeps pushing the
    /// last one until every box has caught up (``BoxChain``).
    func sweep(
        _ box: ExtendedBox, times: Int, _ group: UnsafePointer<SIMD16<UInt8>>,
        ring: UnsafeMutablePointer<SIMD16<Float>>, to out: UnsafeMutableRawPointer
    ) {
        typealias Three = ChainBox<ChainBox<ChainBox<ChainEnd>>>
        switch times {
        case 3: sweep(Three.self, box, group, ring, out)
        case 4: sweep(ChainBox<Three>.self, box, group, ring, out)
        case 5: sweep(ChainBox<ChainBox<Three>>.self, box, group, ring, out)
        case 6: sweep(ChainBox<ChainBox<ChainBox<Three>>>.self, box, group, ring, out)
        // The ring holds `times` boxes' slots; a longer chain would run past it.
        default: preconditionFailure("\(times) extended boxes; BlurKernel allows 3 to 6")
        }
    }

    /// Pushes input positions 1 ..< length, then the last pixel; the chain's output for the
    /// input pushed at e is line position e − delay, delay = the boxes' total half-width.
    /// Never inlined, so each chain gets its own loop with its sums in registers.
    @inline(never)
    private func sweep<Chain: BoxChain>(
        _: Chain.Type, _ box: ExtendedBox, _ group: UnsafePointer<SIMD16<UInt8>>,
        _ ring: UnsafeMutablePointer<SIMD16<Float>>, _ out: UnsafeMutableRawPointer
    ) {
        let taps = BoxTaps(box)
        let delay = Chain.count * (box.l + 1)
        var cascade = Cascade<Chain>(ring: ring, taps: taps)
        cascade.chain.settle(on: Self.floats(group[0]), ring: ring, stride: Chain.count, taps)
        let scale = 1 / (0..<Chain.count).reduce(Float(1)) { acc, _ in acc * box.weight }
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

/// A chain and its position in the ring.
private struct Cascade<Chain: BoxChain> {
    var chain = Chain()
    private var slot: UnsafeMutablePointer<SIMD16<Float>>
    private let ring: UnsafeMutablePointer<SIMD16<Float>>
    private let end: UnsafeMutablePointer<SIMD16<Float>>
    private let taps: BoxTaps

    init(ring: UnsafeMutablePointer<SIMD16<Float>>, taps: BoxTaps) {
        self.ring = ring
        self.slot = ring
        self.end = ring + taps.slots * Chain.count
        self.taps = taps
    }

    @inline(__always)
    mutating func push(_ value: SIMD16<Float>) -> SIMD16<Float> {
        let output = chain.push(value, slot, taps)
        slot += Chain.count
        if slot == end { slot = ring }
        return output
    }
}
