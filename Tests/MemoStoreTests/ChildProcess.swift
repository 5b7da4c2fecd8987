import Foundation
import Glibc

/// A child process with piped standard streams, for the CLI and crash tests.
final class ChildProcess {
    /// The `memo-store` executable built next to the test bundle.
    static let memoStore: String = {
        let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [directory, directory.deletingLastPathComponent()] {
            let path = candidate.appendingPathComponent("memo-store").path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return directory.appendingPathComponent("memo-store").path
    }()

    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var pending: [UInt8] = []

    init(_ executable: String, _ arguments: [String]) throws {
        self.process.executableURL = URL(fileURLWithPath: executable)
        self.process.arguments = arguments
        self.process.standardInput = self.input
        self.process.standardOutput = self.output
        self.process.standardError = FileHandle.nullDevice
        try self.process.run()
    }

    func write(_ text: String) throws {
        try self.input.fileHandleForWriting.write(contentsOf: Data(text.utf8))
    }

    /// The next complete output line, or nil if none arrives before `deadline`.
    func readLine(deadline: ContinuousClock.Instant) -> String? {
        let fd = self.output.fileHandleForReading.fileDescriptor
        while true {
            if let newline = self.pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: self.pending[..<newline], as: UTF8.self)
                self.pending.removeSubrange(...newline)
                return line
            }
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return nil }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(
                left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000)
            guard poll(&poller, 1, max(1, milliseconds)) > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 65_536)
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { return nil }
            self.pending += buffer[0..<count]
        }
    }

    /// SIGKILL, then wait for the process to be gone.
    func kill() {
        Glibc.kill(self.process.processIdentifier, SIGKILL)
        self.process.waitUntilExit()
    }

    /// Closes standard input, drains standard output and waits for the exit status.
    func finish() throws -> Int32 {
        try self.input.fileHandleForWriting.close()
        _ = self.output.fileHandleForReading.readDataToEndOfFile()
        self.process.waitUntilExit()
        return self.process.terminationStatus
    }

    /// Runs `executable` to completion: exit status, standard output and standard error.
    static func run(_ executable: String, _ arguments: [String]) throws -> (
        status: Int32, output: String, errors: String
    ) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (
            process.terminationStatus, String(decoding: data, as: UTF8.self), String(decoding: errorData, as: UTF8.self)
        )
    }
}
