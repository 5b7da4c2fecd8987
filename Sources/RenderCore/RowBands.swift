import Dispatch

/// Runs per-row work in horizontal bands on several threads. Callers only use it for work
/// whose rows are independent (each row reads its own inputs and writes its own output), so
/// the result is the same bytes for any number of threads.
enum RowBands {
    /// Below this many pixels a dispatch costs more than a second thread saves.
    static let minimumPixels = 24_576

    /// Calls `body` on disjoint bands covering `rows`, each at least ``minimumPixels`` pixels
    /// of `width`. With more than one thread there are two bands per thread, so a worker
    /// delayed by other load on the machine does not hold up the whole operation.
    static func run(_ rows: Range<Int>, width: Int, threads: Int, _ body: @Sendable (Range<Int>) -> Void) {
        let bands = threads <= 1 ? 1 : min(2 * threads, rows.count, max(1, rows.count * width / minimumPixels))
        if bands <= 1 { return body(rows) }
        let (first, count) = (rows.lowerBound, rows.count)
        DispatchQueue.concurrentPerform(iterations: bands) { band in
            body((first + count * band / bands)..<(first + count * (band + 1) / bands))
        }
    }
}
