import Foundation
import Synchronization

/// A built executable (`.build/debug`, or `UIBUS_BIN_DIR`) run as a child process.
final class ServiceProcess: Sendable {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    static let binDirectory =
        ProcessInfo.processInfo.environment["UIBUS_BIN_DIR"] ?? "\(ServiceProcess.root)/.build/debug"

    private let process: Process
    private let output = Mutex<[UInt8]>([])

    init(_ tool: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "\(Self.binDirectory)/\(tool)")
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: Self.root)
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardError = stdout
        process.standardInput = FileHandle.nullDevice
        self.process = process
        stdout.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            self?.output.withLock { $0.append(contentsOf: data) }
        }
        try process.run()
    }

    var text: String { self.output.withLock { String(decoding: $0, as: UTF8.self) } }

    /// Waits until the process printed `ready` on a line of its own.
    func waitUntilReady(seconds: Double = 20) throws {
        try waitFor("ready from \(self.process.executableURL!.lastPathComponent): \(self.text)", seconds: seconds) {
            self.text.split(separator: "\n").contains("ready")
        }
    }

    /// Sends SIGTERM and waits for the exit status.
    func stop() throws -> Int32 {
        self.process.terminate()
        try waitFor("exit", seconds: 20) { !self.process.isRunning }
        self.process.waitUntilExit()
        return self.process.terminationStatus
    }
}

struct TimedOut: Error, CustomStringConvertible {
    var description: String
}

/// Polls `condition` until it holds or `seconds` pass.
func waitFor(_ what: String, seconds: Double, _ condition: () throws -> Bool) throws {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try condition() { return }
        usleep(10_000)
    }
    throw TimedOut(description: "timed out waiting for \(what)")
}
