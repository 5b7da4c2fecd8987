import Foundation
import Glibc
import Synchronization

/// The heartbeat a supervised service sends its supervisor, over a pipe only the supervisor made.
///
/// `uibus-supervisor` starts every service with the write end of a pipe on a descriptor named by
/// `UIBUS_HEARTBEAT_FD`. A thread of its own writes one line there every ``intervalMs``:
/// `beat <epoch> <loop turns>`. Being a separate thread, a busy work loop cannot starve it (a
/// flood that keeps the loop handling messages for seconds leaves the beat on time), while a
/// stopped or dead process stops beating at once. The loop's turn count rides along, so the
/// supervisor can still tell a loop that is stuck in one handler for good. The pipe is not on
/// the bus: a paused proxy cannot silence it and no bus client can forge it, and the epoch it
/// names lets the supervisor accept `sys/health/` reports only from the process it started.
public final class Heartbeat: Sendable {
    /// The environment variable naming the inherited descriptor.
    public static let environmentKey = "UIBUS_HEARTBEAT_FD"
    public static let intervalMs = 500

    /// Turns of the owner's work loop; ``ServiceRunner`` and the proxy count one per pass of their poll loops.
    public let loopTurns = Atomic<UInt64>(0)
    private let descriptor: Int32
    private let epoch: UInt64

    private init(descriptor: Int32, epoch: UInt64) {
        self.descriptor = descriptor
        self.epoch = epoch
    }

    /// Starts beating if a supervisor handed this process a heartbeat descriptor.
    ///
    /// - Parameter epoch: the epoch of the service's health reports.
    /// - Returns: nil when not supervised (no or a bad `UIBUS_HEARTBEAT_FD`).
    public static func start(epoch: UInt64) -> Heartbeat? {
        guard let text = ProcessInfo.processInfo.environment[Self.environmentKey], let descriptor = Int32(text),
            descriptor > 2, fcntl(descriptor, F_GETFD) >= 0
        else { return nil }
        // Programs this service starts must not inherit (and so keep alive) its heartbeat.
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        unsetenv(Self.environmentKey)
        let heartbeat = Heartbeat(descriptor: descriptor, epoch: epoch)
        Thread.detachNewThread { heartbeat.beat() }
        return heartbeat
    }

    /// Writes a line every interval until the supervisor closes its end.
    private func beat() {
        var next = timespec()
        clock_gettime(CLOCK_MONOTONIC, &next)
        while true {
            let line = Array("beat \(self.epoch) \(self.loopTurns.load(ordering: .relaxed))\n".utf8)
            // A full pipe (a paused supervisor) skips a beat; a closed one ends the thread.
            if write(self.descriptor, line, line.count) < 0, errno == EPIPE { return }
            // Absolute deadlines: the beat does not drift, and a signal's EINTR just waits again.
            next.tv_nsec += Self.intervalMs * 1_000_000
            if next.tv_nsec >= 1_000_000_000 {
                next.tv_sec += 1
                next.tv_nsec -= 1_000_000_000
            }
            while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, nil) == EINTR {}
        }
    }
}
