import Bus
import Glibc
import ServiceSupport

/// A one-line progress display on stderr, redrawn in place a few times a second, only when stderr
/// is a terminal (a pipe or a log file gets nothing).
public final class ProgressLine {
    private let enabled: Bool
    private var lastDrawNs: UInt64 = 0
    private var drawn = false

    /// - Parameter enabled: nil asks `isatty(2)`.
    public init(enabled: Bool? = nil) {
        self.enabled = enabled ?? (isatty(STDERR_FILENO) == 1)
    }

    /// Redraws the line with `text()` if the last redraw is 200 ms old.
    public func update(_ text: @autoclosure () -> String) {
        guard self.enabled else { return }
        let now = Clock.monotonicNs()
        guard now &- self.lastDrawNs >= 200_000_000 else { return }
        self.lastDrawNs = now
        self.drawn = true
        Log.write("\r\u{1b}[K" + text(), to: STDERR_FILENO)
    }

    /// Ends the line, so what follows starts on a fresh one.
    public func finish() {
        guard self.drawn else { return }
        Log.write("\n", to: STDERR_FILENO)
        self.drawn = false
        self.lastDrawNs = 0
    }
}
