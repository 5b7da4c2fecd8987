import Bus
import Foundation
import Synchronization

/// A built UIBus executable run as a child process, with its output collected (and, if asked,
/// its standard input a pipe the test writes to).
public final class ChildProcess: Sendable {
    /// Where the executables are: `UIBUS_BIN_DIR`, else the debug build directory.
    public static let binDirectory: String = {
        if let directory = ProcessInfo.processInfo.environment["UIBUS_BIN_DIR"] { return directory }
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path + "/.build/debug"
    }()

    public static let repositoryRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    private let process: Process
    /// The writing end of standard input, for a child started with `input: true`.
    private let input: FileHandle?
    /// Both streams so far, how many of them are still open, and how much of stdout
    /// ``nextLine(seconds:)`` has returned.
    private let output = Mutex<(stdout: [UInt8], stderr: [UInt8], openPipes: Int, returned: Int)>(([], [], 2, 0))

    /// Starts `tool` (a name in ``binDirectory``, or a path) with `arguments`; `bus` is passed as `--bus`.
    ///
    /// - Parameters:
    ///   - directory: the working directory (default: the repository).
    ///   - environment: the child's environment (default: this process's).
    ///   - input: whether standard input is a pipe for ``write(_:)`` (else it is `/dev/null`).
    public init(
        _ tool: String, _ arguments: [String], bus: String? = nil, directory: String? = nil,
        environment: [String: String]? = nil, input: Bool = false
    ) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool.hasPrefix("/") ? tool : "\(Self.binDirectory)/\(tool)")
        process.arguments = (bus.map { ["--bus", $0] } ?? []) + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory ?? Self.repositoryRoot)
        if let environment { process.environment = environment }
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        let stdin = input ? Pipe() : nil
        process.standardInput = stdin ?? FileHandle.nullDevice
        self.input = stdin?.fileHandleForWriting
        self.process = process
        try process.run()
        for (pipe, isStdout) in [(stdout, true), (stderr, false)] {
            let handle = pipe.fileHandleForReading
            Thread { [weak self] in Self.drain(handle) { self?.collect($0, isStdout: isStdout) } }.start()
        }
    }

    /// Reads `handle` to its end with blocking reads, handing each chunk to `chunk` and then an
    /// empty one. Not `readabilityHandler`: the dispatch read source it installs, torn down at
    /// end of file while the descriptor closes, can leave libdispatch's epoll bookkeeping pointing
    /// at freed memory, and its manager thread crashed the whole test process
    /// (swift-corelibs-libdispatch#949). The C function is `read`.
    private static func drain(_ handle: FileHandle, _ chunk: ([UInt8]) -> Void) {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = read(handle.fileDescriptor, &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            chunk(Array(buffer[..<count]))
        }
        chunk([])
    }

    /// Appends a chunk of output; an empty one is end of file.
    private func collect(_ data: [UInt8], isStdout: Bool) {
        self.output.withLock {
            if isStdout { $0.stdout.append(contentsOf: data) } else { $0.stderr.append(contentsOf: data) }
            if data.isEmpty { $0.openPipes -= 1 }
        }
    }

    public var stdout: String { self.output.withLock { String(decoding: $0.stdout, as: UTF8.self) } }
    public var stderr: String { self.output.withLock { String(decoding: $0.stderr, as: UTF8.self) } }
    public var lines: [String] { self.stdout.split(separator: "\n").map(String.init) }
    public var isRunning: Bool { self.process.isRunning }
    public var pid: Int32 { self.process.processIdentifier }

    /// Writes `text` to the process's standard input.
    ///
    /// - Precondition: the process was started with `input: true`.
    public func write(_ text: String) throws {
        guard let input = self.input else { preconditionFailure("write(_:) needs a child started with input: true") }
        try input.write(contentsOf: Data(text.utf8))
    }

    /// Closes standard input: the process reads end of file.
    public func closeInput() throws {
        try self.input?.close()
    }

    /// The next line of standard output that no call returned before, waiting up to `seconds`
    /// for it to be complete; nil if it is not by then, or the output ended first.
    public func nextLine(seconds: Double = 20) -> String? {
        var line: String?
        try? waitUntil("a line from \(self.process.executableURL!.lastPathComponent)", seconds: seconds) {
            self.output.withLock { output in
                let unread = output.stdout[output.returned...]
                guard let newline = unread.firstIndex(of: UInt8(ascii: "\n")) else { return output.openPipes == 0 }
                line = String(decoding: unread[..<newline], as: UTF8.self)
                output.returned = newline + 1
                return true
            }
        }
        return line
    }

    /// Waits until the process printed a line equal to `line`.
    public func waitForLine(_ line: String, seconds: Double = 20) throws {
        try waitUntil(
            "'\(line)' from \(self.process.executableURL!.lastPathComponent): \(self.stderr)", seconds: seconds
        ) {
            if self.lines.contains(line) { return true }
            guard self.isRunning else { throw TimedOut(description: "exited early: \(self.stderr)") }
            return false
        }
    }

    /// Waits for the process to exit and returns its status.
    @discardableResult
    public func wait(seconds: Double = 20) throws -> Int32 {
        try waitUntil(
            "\(self.process.executableURL!.lastPathComponent) to exit; stderr: \(self.stderr)", seconds: seconds
        ) {
            !self.process.isRunning
        }
        self.process.waitUntilExit()
        // The last bytes may still be in the pipes; both reach end of file unless a grandchild
        // holds them open, which the deadline bounds.
        try? waitUntil("output drained", seconds: 5) { self.output.withLock { $0.openPipes == 0 } }
        return self.process.terminationStatus
    }

    /// A child still running when its test lets go of it (the test failed before stopping it)
    /// is stopped: SIGTERM, then SIGKILL after 5 s, so no proxy or store outlives its test.
    deinit {
        guard self.process.isRunning else { return }
        kill(self.process.processIdentifier, SIGTERM)
        if (try? waitUntil("a left-over child to stop", seconds: 5) { !self.process.isRunning }) == nil {
            kill(self.process.processIdentifier, SIGKILL)
        }
        self.process.waitUntilExit()
    }

    /// Sends `signal` to the process.
    public func signal(_ signal: Int32) {
        kill(self.process.processIdentifier, signal)
    }

    /// Runs `tool` to completion and returns its exit status and output.
    public static func run(
        _ tool: String, _ arguments: [String], bus: String? = nil, directory: String? = nil,
        environment: [String: String]? = nil
    ) throws -> (status: Int32, stdout: String, stderr: String) {
        let child = try ChildProcess(tool, arguments, bus: bus, directory: directory, environment: environment)
        let status = try child.wait()
        return (status, child.stdout, child.stderr)
    }
}

/// A real `bus-proxy` process on ipc endpoints in a temporary directory.
public final class ProxyProcess {
    public let directory: String
    public let busFile: String
    public let config: BusConfig
    public let process: ChildProcess

    public init() throws {
        self.directory = try ScratchDirectory.make("uibus-cli")
        self.busFile = self.directory + "/bus.json"
        let json = #"{"publish": "ipc://run/in", "subscribe": "ipc://run/out"}"#
        try json.write(toFile: self.busFile, atomically: true, encoding: .utf8)
        self.config = try BusConfig.load(self.busFile)
        self.process = try ChildProcess("bus-proxy", [], bus: self.busFile)
        try self.process.waitForLine("ready")
    }

    public func stop() throws {
        self.process.signal(SIGTERM)
        try self.process.wait()
        ScratchDirectory.remove(self.directory)
    }

    /// A proxy its test did not stop (it failed first) goes with it, directory and all.
    deinit {
        if self.process.isRunning { try? self.stop() }
    }
}
