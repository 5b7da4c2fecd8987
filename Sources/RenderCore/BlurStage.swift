/// One transposing stage of the separable blur: every input line (an image row, or a column
/// after the first stage) is filtered along its length, and written so that the next stage
/// reads it along the other axis.
///
/// Lines are processed in groups that fill the 16 lanes of a `SIMD16` (4 lines of RGBA, lane
/// 4·line + channel, or 16 lines of alpha), so the running sums of 16 independent channels
/// advance together. A group's input is its 16 bytes per position, side by side: gathered from
/// `src` rows, or read in place when `src` is *grouped* (group g at `src + g · srcStride`, 16
/// bytes per position), which is how the first stage writes its output for the second. Each
/// line's arithmetic is the same whatever group or band it falls in, which makes the result
/// independent of the number of threads.
struct BlurStage: @unchecked Sendable {
    let src: UnsafeRawPointer
    let srcStride: Int
    /// `src` holds groups rather than rows.
    let srcGrouped: Bool
    let dst: UnsafeMutableRawPointer
    let dstStride: Int
    /// `dst` gets groups for the next stage (its lines are this stage's positions; RGBA only)
    /// rather than transposed rows (pixel `i` of line `j` at `dst + i * dstStride + j * channels`).
    let dstGrouped: Bool
    /// Pixels per line.
    let length: Int
    let lineCount: Int
    let channels: Int
    let cascade: BoxCascade
    /// Clamp colour ≤ alpha after rounding (last stage of an RGBA blur).
    let clampToAlpha: Bool

    /// Lines per group (one SIMD16 of lanes).
    var groupSize: Int { 16 / channels }
    /// Lines per block: four groups, whose outputs fill one 64-byte cache line per position.
    var blockSize: Int { 64 / channels }
    var blockCount: Int { (lineCount + blockSize - 1) / blockSize }
    /// Bytes of a worker's scratch: a gathered group, then the extended boxes' and the peaked
    /// stage's rings or two integer lines to ping-pong.
    var scratchBytes: Int {
        switch cascade {
        case .extended(let box, let times, let peak):
            groupBytes + 2 * ((box.l + 1) * times + peak.box.l + 1) * MemoryLayout<SIMD16<Float>>.stride
        case .integer, .identity: groupBytes + 2 * lineBytes
        }
    }
    /// Bytes of a group's pixels gathered in lane order, 16 per position (whole cache lines).
    var groupBytes: Int { (length * 16 + 63) & ~63 }
    /// Bytes of one padded integer line.
    private var lineBytes: Int { (length + 2 * cascade.margin) * MemoryLayout<SIMD16<UInt32>>.stride }
    /// Bytes of the staging area where a block's four groups are gathered before writing out.
    var stagingBytes: Int { length * 64 }

    /// Filters blocks `blocks`, using a scratch area of ``scratchBytes`` and a staging area of
    /// ``stagingBytes``.
    func run(blocks: Range<Int>, scratch: UnsafeMutableRawPointer, staging: UnsafeMutableRawPointer) {
        for block in blocks {
            for part in 0..<4 {
                let first = block * blockSize + part * groupSize
                if first >= lineCount { break }
                let group = srcGrouped ? grouped(first / groupSize) : gather(first, into: scratch)
                let work = scratch + groupBytes
                let out = staging + part * 16
                switch cascade {
                case .extended(let box, let times, let peak):
                    let ring = work.assumingMemoryBound(to: SIMD16<Float>.self)
                    sweep(box, times: times, peak: peak, group, ring: ring, to: out)
                case .integer(let radius, let times):
                    let a = work.assumingMemoryBound(to: SIMD16<UInt32>.self)
                    let b = (work + lineBytes).assumingMemoryBound(to: SIMD16<UInt32>.self)
                    load(group, into: a)
                    let result = integerPasses(radius: radius, times: times, a, b)
                    let divisor = (0..<times).reduce(1) { acc, _ in acc * (2 * radius + 1) }
                    storeInteger(result, divisor: divisor, to: out)
                case .identity:
                    let a = work.assumingMemoryBound(to: SIMD16<UInt32>.self)
                    load(group, into: a)
                    storeInteger(a + cascade.margin, divisor: 1, to: out)
                }
            }
            if dstGrouped { flushGrouped(staging, block: block) } else { flush(staging, block: block) }
        }
    }

    /// Writes a block's staged bytes to the destination, one cache line per position.
    private func flush(_ staging: UnsafeMutableRawPointer, block: Int) {
        let first = block * blockSize
        let bytes = min(blockSize, lineCount - first) * channels
        let target = dst + first * channels
        if clampToAlpha {
            // Rounding may leave a colour one above its alpha; premultiplied pixels need c ≤ a.
            let chunks = staging.assumingMemoryBound(to: SIMD16<UInt8>.self)
            for k in 0..<(4 * length) {
                let bytes = chunks[k]
                let alpha = unsafeBitCast(
                    (unsafeBitCast(bytes, to: SIMD4<UInt32>.self) &>> 24) &* 0x0101_0101, to: SIMD16<UInt8>.self)
                chunks[k] = bytes.replacing(with: alpha, where: bytes .> alpha)
            }
        }
        if bytes == 64 {
            for i in 0..<length { (target + i &* dstStride).copyMemory(from: staging + 64 &* i, byteCount: 64) }
        } else {
            for i in 0..<length { (target + i * dstStride).copyMemory(from: staging + 64 * i, byteCount: bytes) }
        }
    }

    /// Writes an RGBA block's staged bytes as groups of the next stage: its line x (this
    /// stage's position) belongs to group x / 4, and this block's lines are positions there.
    /// Position x of the block is 16 lines × 4 bytes at staging + 64x; four positions (one
    /// group) × four lines transpose into four 16-byte group entries.
    private func flushGrouped(_ staging: UnsafeMutableRawPointer, block: Int) {
        let first = block * blockSize
        let lines = min(blockSize, lineCount - first)
        let last = length - 1
        for g in 0..<((length + 3) / 4) {
            let x = 4 * g
            let (c0, c1, c2, c3) = (
                staging + 64 * x, staging + 64 * min(x + 1, last), staging + 64 * min(x + 2, last),
                staging + 64 * min(x + 3, last)
            )
            let target = (dst + g * dstStride + first * 16).assumingMemoryBound(to: SIMD4<UInt32>.self)
            var q = 0
            while 4 * q + 4 <= lines {
                let at = 16 * q
                Self.transpose(
                    c0.load(fromByteOffset: at, as: SIMD4<UInt32>.self),
                    c1.load(fromByteOffset: at, as: SIMD4<UInt32>.self),
                    c2.load(fromByteOffset: at, as: SIMD4<UInt32>.self),
                    c3.load(fromByteOffset: at, as: SIMD4<UInt32>.self), to: target + 4 * q)
                q += 1
            }
            // A last, partial quarter (the image height is not a multiple of 4).
            for line in (4 * q)..<lines {
                let at = 4 * line
                target[line] = SIMD4(
                    c0.load(fromByteOffset: at, as: UInt32.self), c1.load(fromByteOffset: at, as: UInt32.self),
                    c2.load(fromByteOffset: at, as: UInt32.self), c3.load(fromByteOffset: at, as: UInt32.self))
            }
        }
    }

    /// The alpha bytes at position `i` of a group's 16 lines, byte g from line g (the order of
    /// the staged output); RGBA groups are gathered with ``pixels(_:_:_:_:_:)`` and transposes.
    @inline(__always)
    func alphaBytes(_ offsets: SIMD16<Int>, _ i: Int) -> SIMD16<UInt8> {
        var bytes = SIMD16<UInt8>()
        for g in 0..<16 { bytes[g] = src.load(fromByteOffset: offsets[g] &+ i, as: UInt8.self) }
        return bytes
    }

    /// One RGBA pixel from each of four rows.
    @inline(__always)
    static func pixels(
        _ r0: UnsafeRawPointer, _ r1: UnsafeRawPointer, _ r2: UnsafeRawPointer, _ r3: UnsafeRawPointer, _ at: Int
    ) -> SIMD16<UInt8> {
        let words = SIMD4<UInt32>(
            r0.loadUnaligned(fromByteOffset: at, as: UInt32.self),
            r1.loadUnaligned(fromByteOffset: at, as: UInt32.self),
            r2.loadUnaligned(fromByteOffset: at, as: UInt32.self), r3.loadUnaligned(fromByteOffset: at, as: UInt32.self)
        )
        return unsafeBitCast(words, to: SIMD16<UInt8>.self)
    }

    /// Bytes zero-extended to lanes: one byte shuffle that compiles to two `vpmovzxbd` (the
    /// generic `SIMD16<UInt32>(truncatingIfNeeded:)` is an out-of-line call, and a lane-by-lane
    /// copy of pixels loaded from four rows turns into a chain of scalar extracts).
    @inline(__always)
    static func widen(_ b: SIMD16<UInt8>) -> SIMD16<UInt32> {
        let bytes = SIMD64<UInt8>(
            b[0], 0, 0, 0, b[1], 0, 0, 0, b[2], 0, 0, 0, b[3], 0, 0, 0, b[4], 0, 0, 0, b[5], 0, 0, 0, b[6], 0, 0, 0,
            b[7], 0, 0, 0, b[8], 0, 0, 0, b[9], 0, 0, 0, b[10], 0, 0, 0, b[11], 0, 0, 0, b[12], 0, 0, 0, b[13], 0, 0,
            0, b[14], 0, 0, 0, b[15], 0, 0, 0)
        return unsafeBitCast(bytes, to: SIMD16<UInt32>.self)
    }

    /// Group `index` of a grouped source.
    private func grouped(_ index: Int) -> UnsafePointer<SIMD16<UInt8>> {
        (src + index * srcStride).assumingMemoryBound(to: SIMD16<UInt8>.self)
    }

    /// Gathers the group of lines from `first` in lane order into `scratch`, so the sweep reads
    /// each position as one 16-byte load (widening pixels inserted from four rows compiles to a
    /// chain of extracts). Lines past the end repeat the last one.
    private func gather(_ first: Int, into scratch: UnsafeMutableRawPointer) -> UnsafePointer<SIMD16<UInt8>> {
        let group = scratch.assumingMemoryBound(to: SIMD16<UInt8>.self)
        var offsets = SIMD16<Int>()
        for g in 0..<groupSize { offsets[g] = min(first + g, lineCount - 1) * srcStride }
        if channels == 4 {
            let (r0, r1, r2, r3) = (src + offsets[0], src + offsets[1], src + offsets[2], src + offsets[3])
            let words = scratch.assumingMemoryBound(to: SIMD4<UInt32>.self)
            var i = 0
            // Four pixels of each row at a time: a 4×4 transpose of 32-bit words in registers.
            while i &+ 4 <= length {
                let at = 4 &* i
                Self.transpose(
                    r0.loadUnaligned(fromByteOffset: at, as: SIMD4<UInt32>.self),
                    r1.loadUnaligned(fromByteOffset: at, as: SIMD4<UInt32>.self),
                    r2.loadUnaligned(fromByteOffset: at, as: SIMD4<UInt32>.self),
                    r3.loadUnaligned(fromByteOffset: at, as: SIMD4<UInt32>.self), to: words + i)
                i &+= 4
            }
            while i < length {
                group[i] = Self.pixels(r0, r1, r2, r3, 4 &* i)
                i &+= 1
            }
        } else {
            for i in 0..<length { group[i] = alphaBytes(offsets, i) }
        }
        return UnsafePointer(group)
    }

    /// Stores the 4×4 transpose of rows `a`, `b`, `c`, `d` of 32-bit words at `out[0...3]`.
    @inline(__always)
    static func transpose(
        _ a: SIMD4<UInt32>, _ b: SIMD4<UInt32>, _ c: SIMD4<UInt32>, _ d: SIMD4<UInt32>,
        to out: UnsafeMutablePointer<SIMD4<UInt32>>
    ) {
        let ab = SIMD8(a[0], b[0], a[1], b[1], a[2], b[2], a[3], b[3])
        let cd = SIMD8(c[0], d[0], c[1], d[1], c[2], d[2], c[3], d[3])
        out[0] = SIMD4(ab[0], ab[1], cd[0], cd[1])
        out[1] = SIMD4(ab[2], ab[3], cd[2], cd[3])
        out[2] = SIMD4(ab[4], ab[5], cd[4], cd[5])
        out[3] = SIMD4(ab[6], ab[7], cd[6], cd[7])
    }

    /// Widens a group's pixels into lanes and replicates the edge pixels into the margins.
    private func load(_ group: UnsafePointer<SIMD16<UInt8>>, into line: UnsafeMutablePointer<SIMD16<UInt32>>) {
        let margin = cascade.margin
        let body = line + margin
        for i in 0..<length { body[i] = Self.widen(group[i]) }
        line.update(repeating: body[0], count: margin)
        (body + length).update(repeating: body[length - 1], count: margin)
    }

    /// Runs `times` integer boxes of width 2·radius + 1, re-clamping the margins before each.
    private func integerPasses(
        radius: Int, times: Int, _ a: UnsafeMutablePointer<SIMD16<UInt32>>, _ b: UnsafeMutablePointer<SIMD16<UInt32>>
    ) -> UnsafeMutablePointer<SIMD16<UInt32>> {
        let margin = cascade.margin
        var input = a + margin
        var output = b + margin
        for pass in 0..<times {
            if pass > 0 {
                (input - margin).update(repeating: input[0], count: margin)
                (input + length).update(repeating: input[length - 1], count: margin)
            }
            var sum = SIMD16<UInt32>()
            for k in -radius...radius { sum &+= input[k] }
            output[0] = sum
            var i = 1
            while i < length {
                sum &+= input[i + radius] &- input[i - radius - 1]
                output[i] = sum
                i += 1
            }
            swap(&input, &output)
        }
        return input
    }

    /// Divides exact integer sums by `divisor` with rounding and writes them (transposed).
    private func storeInteger(
        _ line: UnsafeMutablePointer<SIMD16<UInt32>>, divisor: Int, to out: UnsafeMutableRawPointer
    ) {
        if divisor == 1 {
            for i in 0..<length { store(SIMD16<UInt8>(truncatingIfNeeded: line[i]), to: out + 64 * i) }
            return
        }
        // q = ⌊(s + d/2) / d⌋ exactly: estimate in Float (off by at most one), then correct with
        // the integer remainder. UInt32 → Float goes through two exact 16-bit halves and the
        // 2^23 bit trick (generic SIMD conversions compile to slow scalar code).
        let d = SIMD16<UInt32>(repeating: UInt32(divisor))
        let half = SIMD16<UInt32>(repeating: UInt32(divisor / 2))
        let inverse = SIMD16<Float>(repeating: 1 / Float(divisor))
        let exponent = SIMD16<UInt32>(repeating: 0x4B00_0000)
        let bias = SIMD16<Float>(repeating: 8_388_608)
        let magic = SIMD16<Float>(repeating: 12_582_912)
        let low16 = SIMD16<UInt32>(repeating: 0xFFFF)
        for i in 0..<length {
            let n = line[i] &+ half
            let high = unsafeBitCast((n &>> 16) | exponent, to: SIMD16<Float>.self) - bias
            let low = unsafeBitCast((n & low16) | exponent, to: SIMD16<Float>.self) - bias
            let estimate = (high * 65_536 + low) * inverse + magic
            var q = unsafeBitCast(estimate, to: SIMD16<UInt32>.self) & low16
            let remainder = unsafeBitCast(n &- q &* d, to: SIMD16<Int32>.self)
            q.replace(with: q &- 1, where: remainder .< 0)
            q.replace(with: q &+ 1, where: remainder .>= unsafeBitCast(d, to: SIMD16<Int32>.self))
            let bytes = SIMD16<UInt8>(truncatingIfNeeded: q)
            store(bytes, to: out + 64 * i)
        }
    }

    @inline(__always)
    /// Stages one position's bytes.
    func store(_ bytes: SIMD16<UInt8>, to target: UnsafeMutableRawPointer) {
        target.storeBytes(of: bytes, as: SIMD16<UInt8>.self)
    }
}
