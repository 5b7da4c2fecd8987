import Bus
import Glibc
import ServiceSupport

/// Progress on stderr while a flood runs: on a terminal one line redrawn in place a few times a
/// second; elsewhere (a pipe, a log file) one line a second, so a long flood is never silent.
public final class ProgressLine {
    private let terminal: Bool
    private var lastDrawNs: UInt64 = 0
    private var drawn = false

    /// - Parameter terminal: nil asks `isatty(2)`.
    public init(terminal: Bool? = nil) {
        self.terminal = terminal ?? (isatty(STDERR_FILENO) == 1)
    }

    /// Shows `text()` if the last one is 200 ms old (on a terminal) or a second old (elsewhere).
    public func update(_ text: @autoclosure () -> String) {
        let now = Clock.monotonicNs()
        if self.lastDrawNs == 0 && !self.terminal {
            // The first line waits a second too: a short flood stays quiet.
            self.lastDrawNs = now
            return
        }
        guard now &- self.lastDrawNs >= (self.terminal ? 200_000_000 : 1_000_000_000) else { return }
        self.lastDrawNs = now
        if self.terminal {
            self.drawn = true
            Log.write("\r\u{1b}[K" + text(), to: STDERR_FILENO)
        } else {
            Log.write(text() + "\n", to: STDERR_FILENO)
        }
    }

    /// Ends the line, so what follows starts on a fresh one.
    public func finish() {
        self.lastDrawNs = 0
        guard self.drawn else { return }
        Log.write("\n", to: STDERR_FILENO)
        self.drawn = false
    }
}
