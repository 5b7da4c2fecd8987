/// One transposing stage of the separable blur: every input line (an image row, or a column
/// after the first stage) is filtered along its length, and pixel `i` of line `j` is written to
/// `dst + i * dstStride + j * channels`, so the second stage reads columns as contiguous rows.
///
/// Lines are processed in groups that fill the 16 lanes of a `SIMD16` (4 lines of RGBA, lane
/// 4·channel + line, or 16 lines of alpha) in a scratch line, so the running sums of 16
/// independent channels advance together. Each line's arithmetic is the same whatever group or
/// band it falls in, which makes the result independent of the number of threads.
struct BlurStage: @unchecked Sendable {
    let src: UnsafeRawPointer
    let srcStride: Int
    let dst: UnsafeMutableRawPointer
    let dstStride: Int
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
    /// Bytes of one scratch line (each of the two ping-pong buffers a worker needs).
    var scratchBytes: Int { (length + 2 * cascade.margin) * MemoryLayout<SIMD16<Float>>.stride }
    /// Bytes of the staging area where a block's four groups are gathered before writing out.
    var stagingBytes: Int { length * 64 }

    /// Filters blocks `blocks`, using two scratch lines of ``scratchBytes`` and a staging area of
    /// ``stagingBytes``.
    func run(
        blocks: Range<Int>, scratchA: UnsafeMutableRawPointer, scratchB: UnsafeMutableRawPointer,
        staging: UnsafeMutableRawPointer
    ) {
        for block in blocks {
            for part in 0..<4 {
                let first = block * blockSize + part * groupSize
                if first >= lineCount { break }
                var offsets = SIMD16<Int>()
                for g in 0..<groupSize { offsets[g] = min(first + g, lineCount - 1) * srcStride }
                let out = staging + part * 16
                switch cascade {
                case .extended(let boxes):
                    let a = scratchA.assumingMemoryBound(to: SIMD16<Float>.self)
                    let b = scratchB.assumingMemoryBound(to: SIMD16<Float>.self)
                    load(offsets, into: a)
                    extendedPasses(boxes, a, b, to: out)
                case .integer(let radius, let times):
                    let a = scratchA.assumingMemoryBound(to: SIMD16<UInt32>.self)
                    let b = scratchB.assumingMemoryBound(to: SIMD16<UInt32>.self)
                    load(offsets, into: a)
                    let result = integerPasses(radius: radius, times: times, a, b)
                    let divisor = (0..<times).reduce(1) { acc, _ in acc * (2 * radius + 1) }
                    storeInteger(result, divisor: divisor, to: out)
                case .identity:
                    let a = scratchA.assumingMemoryBound(to: SIMD16<UInt32>.self)
                    load(offsets, into: a)
                    storeInteger(a + cascade.margin, divisor: 1, to: out)
                }
            }
            flush(staging, block: block)
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

    /// The pixels at position `i` of the group's lines, one byte per lane, zero-extended.
    @inline(__always)
    private func gather(_ offsets: SIMD16<Int>, _ i: Int) -> SIMD16<UInt32> {
        var lanes = SIMD16<UInt32>()
        if channels == 4 {
            for g in 0..<4 {
                let word = src.loadUnaligned(fromByteOffset: offsets[g] &+ 4 &* i, as: UInt32.self)
                for c in 0..<4 { lanes[4 &* c &+ g] = (word &>> UInt32(8 &* c)) & 0xFF }
            }
        } else {
            for g in 0..<16 { lanes[g] = UInt32(src.load(fromByteOffset: offsets[g] &+ i, as: UInt8.self)) }
        }
        return lanes
    }

    /// One RGBA pixel from each of four rows as 16 lanes, channel-major (lane 4·channel + row):
    /// four shifts and masks of the four pixel words. The generic `SIMD16<UInt32>(truncatingIfNeeded:)`
    /// byte widening is an out-of-line call, and a row-major widening compiles to a shuffle chain.
    @inline(__always)
    private static func widen(
        _ r0: UnsafeRawPointer, _ r1: UnsafeRawPointer, _ r2: UnsafeRawPointer, _ r3: UnsafeRawPointer, _ at: Int
    ) -> SIMD16<UInt32> {
        let words = SIMD4<UInt32>(
            r0.loadUnaligned(fromByteOffset: at, as: UInt32.self),
            r1.loadUnaligned(fromByteOffset: at, as: UInt32.self),
            r2.loadUnaligned(fromByteOffset: at, as: UInt32.self), r3.loadUnaligned(fromByteOffset: at, as: UInt32.self)
        )
        let mask = SIMD4<UInt32>(repeating: 0xFF)
        return SIMD16(
            lowHalf: SIMD8(lowHalf: words & mask, highHalf: (words &>> 8) & mask),
            highHalf: SIMD8(lowHalf: (words &>> 16) & mask, highHalf: words &>> 24))
    }

    /// Gathers one group's pixels into lanes and replicates the edge pixels into the margins.
    private func load(_ offsets: SIMD16<Int>, into line: UnsafeMutablePointer<SIMD16<UInt32>>) {
        let margin = cascade.margin
        let body = line + margin
        for i in 0..<length { body[i] = gather(offsets, i) }
        line.update(repeating: body[0], count: margin)
        (body + length).update(repeating: body[length - 1], count: margin)
    }

    /// The same as Float lanes; 0x4B00_0000 | n is the float 2^23 + n, an exact, vectorizable
    /// UInt8 → Float conversion (generic SIMD conversions compile to slow scalar code).
    private func load(_ offsets: SIMD16<Int>, into line: UnsafeMutablePointer<SIMD16<Float>>) {
        let margin = cascade.margin
        let body = line + margin
        let exponent = SIMD16<UInt32>(repeating: 0x4B00_0000)
        let bias = SIMD16<Float>(repeating: 8_388_608)
        if channels == 4 {
            let (r0, r1, r2, r3) = (src + offsets[0], src + offsets[1], src + offsets[2], src + offsets[3])
            var at = 0
            for i in 0..<length {
                body[i] = unsafeBitCast(Self.widen(r0, r1, r2, r3, at) | exponent, to: SIMD16<Float>.self) - bias
                at &+= 4
            }
        } else {
            for i in 0..<length {
                body[i] = unsafeBitCast(gather(offsets, i) | exponent, to: SIMD16<Float>.self) - bias
            }
        }
        line.update(repeating: body[0], count: margin)
        (body + length).update(repeating: body[length - 1], count: margin)
    }

    /// Runs the extended boxes; each pass shrinks the valid range by l + 1 on each side, so the
    /// last one is valid exactly on the line (padding once = clamp, blur, crop). The last pass
    /// scales, rounds and stages bytes directly instead of writing floats.
    private func extendedPasses(
        _ boxes: [ExtendedBox], _ a: UnsafeMutablePointer<SIMD16<Float>>, _ b: UnsafeMutablePointer<SIMD16<Float>>,
        to out: UnsafeMutableRawPointer
    ) {
        var input = a
        var output = b
        var low = 0
        var high = length + 2 * cascade.margin
        for box in boxes.dropLast() {
            let target = output
            extendedPass(box, input, low + box.l + 1, high - box.l - 1) { i, value in target[i] = value }
            low += box.l + 1
            high -= box.l + 1
            swap(&input, &output)
        }
        // Adding 1.5·2^23 to a value in 0...255 leaves it rounded to the nearest integer in the
        // low mantissa byte (generic SIMD Float→Int conversions compile to slow scalar code).
        let scale = SIMD16<Float>(repeating: 1 / boxes.reduce(Float(1)) { $0 * $1.weight })
        let lo = SIMD16<Float>(repeating: 0)
        let hi = SIMD16<Float>(repeating: 255)
        let magic = SIMD16<Float>(repeating: 12_582_912)
        let last = boxes[boxes.count - 1]
        let l = last.l
        let alpha = SIMD16<Float>(repeating: last.alpha)
        // The last pass covers exactly the line: positions margin ..< margin + length.
        var sum = SIMD16<Float>()
        let first = cascade.margin
        for k in (first - l)...(first + l) { sum += input[k] }
        var entering = sum  // replaced by the entering value from step 1 on
        for i in 0..<length {
            let leaving = input[first &+ i &- l &- 1]
            if i > 0 { sum += entering - leaving }
            let next = input[first &+ i &+ l &+ 1]
            var v = sum.addingProduct(alpha, leaving + next) * scale
            entering = next
            v.replace(with: lo, where: v .< lo)
            v.replace(with: hi, where: v .> hi)
            v += magic
            let words = unsafeBitCast(v, to: SIMD16<UInt32>.self)
            store(SIMD16<UInt8>(truncatingIfNeeded: words), to: out + 64 &* i)
        }
    }

    /// One extended box from `first` to `end` (exclusive); `emit` receives each unnormalized sum.
    @inline(__always)
    private func extendedPass(
        _ box: ExtendedBox, _ input: UnsafeMutablePointer<SIMD16<Float>>, _ first: Int, _ end: Int,
        _ emit: (Int, SIMD16<Float>) -> Void
    ) {
        let l = box.l
        let alpha = SIMD16<Float>(repeating: box.alpha)
        var sum = SIMD16<Float>()
        for k in (first - l)...(first + l) { sum += input[k] }
        emit(first, sum + alpha * (input[first - l - 1] + input[first + l + 1]))
        // Each step loads two values: the one entering the box (kept from the last step's right
        // end) and the one leaving it.
        var entering = input[first + l + 1]
        var i = first + 1
        // Two steps per iteration: the entering value passes from one step to the next in a
        // register instead of a copy, and the loop overhead halves (same operations, same order).
        while i &+ 1 < end {
            let leaving = input[i &- l &- 1]
            sum += entering - leaving
            let next = input[i &+ l &+ 1]
            emit(i, sum.addingProduct(alpha, leaving + next))
            let leaving2 = input[i &- l]
            sum += next - leaving2
            let next2 = input[i &+ l &+ 2]
            emit(i &+ 1, sum.addingProduct(alpha, leaving2 + next2))
            entering = next2
            i &+= 2
        }
        if i < end {
            let leaving = input[i &- l &- 1]
            sum += entering - leaving
            emit(i, sum.addingProduct(alpha, leaving + input[i &+ l &+ 1]))
        }
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
    private func store(_ bytes: SIMD16<UInt8>, to target: UnsafeMutableRawPointer) {
        // RGBA lanes are channel-major (4·channel + row); pixels are row-major (4·row + channel):
        // a 4×4 byte transpose, one constant shuffle.
        let pixels =
            channels == 4
            ? SIMD16<UInt8>(
                bytes[0], bytes[4], bytes[8], bytes[12], bytes[1], bytes[5], bytes[9], bytes[13], bytes[2], bytes[6],
                bytes[10], bytes[14], bytes[3], bytes[7], bytes[11], bytes[15]) : bytes
        target.storeBytes(of: pixels, as: SIMD16<UInt8>.self)
    }
}
