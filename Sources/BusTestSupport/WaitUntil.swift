import Bus
import Glibc

/// A condition that did not come true before its deadline.
public struct TimedOut: Error, CustomStringConvertible {
    public var description: String

    public init(description: String) {
        self.description = description
    }
}

/// Polls `condition` until it holds, failing after `seconds`: a deadline, never a bare sleep.
public func waitUntil(_ what: String, seconds: Double = 10, _ condition: () throws -> Bool) throws {
    let deadline = Clock.monotonicNs() + UInt64(seconds * 1e9)
    while try !condition() {
        guard Clock.monotonicNs() < deadline else { throw TimedOut(description: "timed out waiting for \(what)") }
        _ = poll(nil, 0, 2)
    }
}
