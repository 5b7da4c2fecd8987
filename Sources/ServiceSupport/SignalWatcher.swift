import CLinux
import Glibc

/// Turns signals (by default SIGTERM, SIGINT and SIGHUP) into a readable file descriptor for
/// the poll loop.
///
/// Create it first thing in `main`, before any thread exists (libzmq starts I/O threads with
/// its context): the signals are blocked in the creating thread and every thread it starts
/// inherits that, so the signals are only ever seen through the descriptor.
public final class SignalWatcher {
    public let descriptor: Int32

    /// Blocks `signals` and opens a signalfd for them.
    /// The corresponding C functions are `pthread_sigmask` and `signalfd`.
    public init(signals: [Int32] = [SIGTERM, SIGINT, SIGHUP]) {
        var mask = sigset_t()
        sigemptyset(&mask)
        for signal in signals { sigaddset(&mask, signal) }
        pthread_sigmask(SIG_BLOCK, &mask, nil)
        self.descriptor = signalfd(-1, &mask, Int32(SFD_CLOEXEC | SFD_NONBLOCK))
        // A broken pipe on stdout (bus-tap | head) must end the tool quietly, not kill it mid-write.
        signal(SIGPIPE, SIG_IGN)
    }

    deinit {
        close(self.descriptor)
    }

    /// Reads one pending signal, if any. The corresponding C function is `read`.
    public func pending() -> Int32? {
        var info = signalfd_siginfo()
        let count = read(self.descriptor, &info, MemoryLayout<signalfd_siginfo>.size)
        return count == MemoryLayout<signalfd_siginfo>.size ? Int32(info.ssi_signo) : nil
    }
}
