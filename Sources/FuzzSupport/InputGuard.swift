import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Crash capture and a hang watchdog for the mutation loop, like libFuzzer's `crash-*` and
/// `-timeout`: the input being run is kept in a buffer that a signal handler writes to
/// `<directory>/crash-<target>-<index>` when the decoder traps or faults, and a watchdog thread
/// writes it to `hang-<target>-<index>` and exits with status 3 when one input runs longer than
/// the time limit. One guard per process.
public final class InputGuard: Sendable {
    /// Exit status when an input hangs.
    public static let hangStatus: Int32 = 3

    /// - Parameters:
    ///   - directory: where findings are written.
    ///   - limitMs: the longest one input may run.
    public init(directory: String, target: String, limitMs: Int) {
        guardState.withLock { state in
            state.prefix = Array("\(directory)/".utf8)
            state.target = Array("-\(target)-".utf8)
        }
        limitNs.store(Int64(limitMs) * 1_000_000, ordering: .relaxed)
        // The handlers and the watchdog are per process; a later guard only renames the findings.
        guard installed.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged else { return }
        for signal in [SIGSEGV, SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = onCrash
            previousActions.withLock { _ = sigaction(signal, &action, &$0[Int(signal)]) }
        }
        Thread.detachNewThread {
            while true {
                usleep(20_000)
                let started = currentStart.load(ordering: .acquiring)
                let limit = limitNs.load(ordering: .relaxed)
                if started != 0, Self.now() - started > limit {
                    writeFinding(kind: "hang")
                    let message =
                        "input \(currentIndex.load(ordering: .relaxed)) ran longer than \(limit / 1_000_000) ms\n"
                    _ = message.withCString { write(STDERR_FILENO, $0, strlen($0)) }
                    _exit(Self.hangStatus)
                }
            }
        }
    }

    /// Keeps `input` for the handlers and starts its clock.
    public func begin(_ input: [UInt8], index: Int) {
        input.withUnsafeBufferPointer { source in
            currentInput.withLock { buffer in
                if buffer.capacity < source.count {
                    buffer.pointer.deallocate()
                    buffer = InputBuffer(
                        pointer: .allocate(capacity: source.count * 2), capacity: source.count * 2, count: 0)
                }
                if let base = source.baseAddress { buffer.pointer.update(from: base, count: source.count) }
                buffer.count = source.count
            }
        }
        currentIndex.store(index, ordering: .relaxed)
        currentStart.store(Self.now(), ordering: .releasing)
    }

    /// The input returned.
    public func end() {
        currentStart.store(0, ordering: .releasing)
    }

    /// CLOCK_MONOTONIC in nanoseconds.
    public static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}

private struct GuardState: Sendable {
    var prefix: [UInt8] = []
    var target: [UInt8] = []
}

private struct InputBuffer: @unchecked Sendable {
    var pointer: UnsafeMutablePointer<UInt8>
    var capacity: Int
    var count: Int
}

private let guardState = Mutex(GuardState())
private let currentInput = Mutex(InputBuffer(pointer: .allocate(capacity: 1), capacity: 1, count: 0))
private let currentIndex = Atomic<Int>(0)
private let currentStart = Atomic<Int64>(0)
private let limitNs = Atomic<Int64>(0)
private let installed = Atomic<Bool>(false)
private let previousActions = Mutex<[sigaction]>(Array(repeating: .init(), count: Int(NSIG)))

/// Writes the input to its finding file, then puts the previous handler back: returning re-runs
/// the faulting instruction (or `abort` raises again), and the Swift runtime prints its backtrace.
private func onCrash(_ signal: Int32) {
    currentStart.store(0, ordering: .releasing)
    writeFinding(kind: "crash")
    _ = previousActions.withLockIfAvailable { sigaction(signal, &$0[Int(signal)], nil) }
}

/// Writes the current input to `<directory>/<kind>-<target>-<index>`, with no allocation (this
/// runs in a signal handler; the locks are only tried, never waited for).
private func writeFinding(kind: StaticString) {
    guardState.withLockIfAvailable { state in
        currentInput.withLockIfAvailable { buffer in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 4096) { name in
                var length = 0
                func append(_ bytes: UnsafeBufferPointer<UInt8>) {
                    for byte in bytes where length < name.count - 1 {
                        name[length] = byte
                        length += 1
                    }
                }
                state.prefix.withUnsafeBufferPointer(append)
                append(UnsafeBufferPointer(start: kind.utf8Start, count: kind.utf8CodeUnitCount))
                state.target.withUnsafeBufferPointer(append)
                var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
                    (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
                withUnsafeMutableBytes(of: &digits) { digits in
                    var index = currentIndex.load(ordering: .relaxed)
                    var count = 0
                    repeat {
                        digits[count] = UInt8(48 + index % 10)
                        index /= 10
                        count += 1
                    } while index > 0 && count < digits.count
                    for position in stride(from: count - 1, through: 0, by: -1) where length < name.count - 1 {
                        name[length] = digits[position]
                        length += 1
                    }
                }
                name[length] = 0
                let fd = creat(name.baseAddress!, 0o644)
                guard fd >= 0 else { return }
                _ = write(fd, buffer.pointer, buffer.count)
                close(fd)
            }
        }
    }
}
