import Glibc
import Synchronization

/// Wakes the bus thread's poll loop from the web thread: a pipe whose read end the loop watches.
///
/// A page's touch goes out as soon as it arrives instead of at the next flush tick. Rings
/// between two answers write one byte (the flag says one is on its way), so a flood of pointer
/// messages costs one `write` per turn of the loop, not one per message.
final class Doorbell: Sendable {
    /// Readable while a ring is unanswered (the pipe's read end, for ``ServiceRunner/watch``).
    let descriptor: Int32
    private let writer: Int32
    private let rung = Atomic(false)

    /// - Throws: ``ViewError`` when no pipe can be made.
    init() throws {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw ViewError("pipe failed: errno \(errno)") }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        self.descriptor = ends[0]
        self.writer = ends[1]
    }

    deinit {
        close(self.descriptor)
        close(self.writer)
    }

    /// Makes ``descriptor`` readable; safe from any thread.
    func ring() {
        guard !self.rung.exchange(true, ordering: .acquiringAndReleasing) else { return }
        var one: UInt8 = 1
        _ = write(self.writer, &one, 1)
    }

    /// Takes the ring. Call before looking at what it announced: a ring after this writes again.
    ///
    /// The byte is read before the flag is cleared: cleared first, a ring in between would write a
    /// byte this read takes, leaving the flag set with nothing to wake the loop ever again.
    func answer() {
        var bytes = [UInt8](repeating: 0, count: 64)
        while read(self.descriptor, &bytes, bytes.count) > 0 {}
        self.rung.store(false, ordering: .sequentiallyConsistent)
    }
}
