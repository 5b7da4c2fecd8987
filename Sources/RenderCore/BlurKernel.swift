import Dispatch

/// The blur: one running-sum box cascade with two modes (see ``BlurMode``), run as two
/// transposing stages over row bands in parallel.
///
/// Scratch memory comes from a ``BufferPool``, so blurring frames of one size allocates nothing
/// once warm. The output is bit-identical for any `threads` value.
///
/// ```swift
/// let kernel = BlurKernel(threads: 2)
/// try kernel.apply(.gaussian(sigma: 20.8), to: &image)
/// ```
public final class BlurKernel: Sendable {
    /// Where scratch buffers come from.
    public let pool: BufferPool
    /// How many workers share a stage.
    public let threads: Int
    /// Extended boxes per axis in gaussian mode, after the ``PeakedBox`` (3: within 1.2 LSB of a
    /// float Gaussian on 2-D features; more boxes no longer buy accuracy).
    public let gaussianPasses: Int

    /// - Parameters:
    ///   - pool: the scratch pool (shared with the renderer so frames reuse memory).
    ///   - threads: workers per stage, at least 1.
    ///   - gaussianPasses: extended boxes per axis after the peaked stage for
    ///     ``BlurMode/gaussian(sigma:)``, 3 to 6.
    public init(pool: BufferPool = BufferPool(), threads: Int = 2, gaussianPasses: Int = 3) {
        self.pool = pool
        self.threads = max(1, threads)
        self.gaussianPasses = min(max(gaussianPasses, 3), 6)
    }

    /// Blurs a whole image in place.
    /// - Throws: ``RenderError`` (`invalidParameter`) for a negative or non-finite sigma or bad box sizes.
    public func apply(_ mode: BlurMode, to image: inout Image) throws {
        try mode.validate()
        let cascade = BoxCascade(mode, gaussianPasses: gaussianPasses)
        if cascade == .identity { return }
        let (width, height, channels) = (image.width, image.height, image.channels)
        image.bytes.withUnsafeMutableBytes { bytes in
            let base = bytes.baseAddress!
            blur(
                cascade, src: UnsafeRawPointer(base), srcStride: width * channels, dst: base,
                dstStride: width * channels, width: width, height: height, channels: channels)
        }
    }

    /// Blurs `width`×`height` pixels at `src` into `dst` (which may be `src`), both with the
    /// given row strides in bytes, through a pooled intermediate copy. For RGBA the first stage
    /// writes it grouped by columns (four columns side by side, one group after another), which
    /// the second stage reads in place; alpha goes through a plain transposed copy (16 single
    /// bytes would need a byte transpose to group, and alpha blurs are small).
    func blur(
        _ cascade: BoxCascade, src: UnsafeRawPointer, srcStride: Int, dst: UnsafeMutableRawPointer, dstStride: Int,
        width: Int, height: Int, channels: Int
    ) {
        let grouped = channels == 4
        // Groups and transposed rows are padded to whole cache lines.
        let stride = grouped ? (height * 16 + 63) & ~63 : (height * channels + 63) & ~63
        let count = grouped ? (width + 3) / 4 : width
        let transposed = pool.take(byteCount: count * stride)
        defer { pool.give(back: transposed) }
        let rows = BlurStage(
            src: src, srcStride: srcStride, srcGrouped: false, dst: transposed.pointer, dstStride: stride,
            dstGrouped: grouped, length: width, lineCount: height, channels: channels, cascade: cascade,
            clampToAlpha: false)
        run(rows)
        let columns = BlurStage(
            src: UnsafeRawPointer(transposed.pointer), srcStride: stride, srcGrouped: grouped, dst: dst,
            dstStride: dstStride, dstGrouped: false, length: height, lineCount: width, channels: channels,
            cascade: cascade, clampToAlpha: channels == 4)
        run(columns)
    }

    /// Splits a stage's blocks into contiguous runs, each with its own scratch. With more than
    /// one thread there are four runs per thread, so a worker delayed by other load on the
    /// machine does not hold up the whole stage.
    private func run(_ stage: BlurStage) {
        let blocks = stage.blockCount
        let workers = min(threads == 1 ? 1 : 4 * threads, blocks)
        let scratch = (0..<workers).map { _ in
            (pool.take(byteCount: stage.scratchBytes), pool.take(byteCount: stage.stagingBytes))
        }
        defer {
            for (lines, staging) in scratch {
                pool.give(back: lines)
                pool.give(back: staging)
            }
        }
        let body: @Sendable (Int) -> Void = { worker in
            let (lines, staging) = scratch[worker]
            let range = (blocks * worker / workers)..<(blocks * (worker + 1) / workers)
            stage.run(blocks: range, scratch: lines.pointer, staging: staging.pointer)
        }
        if workers == 1 {
            body(0)
        } else {
            DispatchQueue.concurrentPerform(iterations: workers, execute: body)
        }
    }
}
