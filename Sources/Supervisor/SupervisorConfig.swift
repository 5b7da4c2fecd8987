import BusSchema
import Foundation
import ServiceSupport
import SupervisorCore

/// The services to run and the supervision policy, from `deploy/services.json`.
///
/// ```json
/// {"policy": {"watchdog_ms": 3000},
///  "services": [{"name": "bus-proxy", "command": ["bus-proxy"]},
///               {"name": "memo-store", "command": ["memo-store", "--db", "var/memo.sqlite"],
///                "directories": ["var"]}, …]}
/// ```
/// `directories` are made before each start; `"watchdog": false` exempts a program that has
/// no heartbeat (not a UIBus service).
/// A command word without a `/` names an executable in the build directory (`--bin`).
public struct SupervisorConfig: Sendable {
    public var services: [ServiceSpec]
    public var policy: SupervisionPolicy

    public init(services: [ServiceSpec], policy: SupervisionPolicy) {
        self.services = services
        self.policy = policy
    }

    private static let nameBytes = Set(Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-".utf8))

    /// Loads and checks a services file, resolving commands against `binDirectory`.
    ///
    /// - Throws: ``SupervisorError`` naming the file and the field that is wrong.
    public static func load(_ path: String, binDirectory: String) throws -> SupervisorConfig {
        let text: String
        do {
            text = try TextFile.read(path)
        } catch {
            throw SupervisorError("\(error)")
        }
        let document: Value
        do {
            document = try JSONReader.parse(text)
        } catch {
            throw SupervisorError("\(path) is not valid JSON: \(error)")
        }
        var policy = SupervisionPolicy()
        if let overrides = document["policy"]?.mapValue {
            for (key, value) in overrides {
                guard let number = value.intValue else {
                    throw SupervisorError("\(path): policy.\(key) must be an integer")
                }
                switch key {
                case "initial_backoff_ms": policy.initialBackoffMs = number
                case "maximum_backoff_ms": policy.maximumBackoffMs = number
                case "stable_after_ms": policy.stableAfterMs = number
                case "maximum_restarts": policy.maximumRestarts = Int(number)
                case "intensity_window_ms": policy.intensityWindowMs = number
                case "watchdog_ms": policy.watchdogMs = number
                case "loop_stall_ms": policy.loopStallMs = number
                case "start_timeout_ms": policy.startTimeoutMs = number
                case "stop_timeout_ms": policy.stopTimeoutMs = number
                default: throw SupervisorError("\(path): unknown policy setting '\(key)'")
                }
            }
        }
        guard let entries = document["services"]?.arrayValue, !entries.isEmpty else {
            throw SupervisorError("\(path): 'services' must be a non-empty list")
        }
        var services: [ServiceSpec] = []
        for (index, entry) in entries.enumerated() {
            let place = "\(path): services[\(index)]"
            // The name becomes a log file's name and a word of the control protocol.
            guard let name = entry["name"]?.stringValue, (1...64).contains(name.utf8.count),
                name.utf8.allSatisfy({ Self.nameBytes.contains($0) }), name != "supervisor", !name.hasPrefix(".")
            else {
                throw SupervisorError(
                    "\(place).name must be 1 to 64 letters, digits, '.', '_' or '-' (not 'supervisor')")
            }
            guard let words = entry["command"]?.arrayValue?.compactMap(\.stringValue), let program = words.first else {
                throw SupervisorError("\(place).command must be a list of strings, the program first")
            }
            if services.contains(where: { $0.name == name }) { throw SupervisorError("\(place): '\(name)' twice") }
            let resolved = program.contains("/") ? program : "\(binDirectory)/\(program)"
            guard FileManager.default.isExecutableFile(atPath: resolved) else {
                throw SupervisorError("\(place).command: \(resolved) is not an executable (build first?)")
            }
            let directories = entry["directories"]?.arrayValue?.compactMap(\.stringValue) ?? []
            if let given = entry["directories"], given.arrayValue?.count != directories.count {
                throw SupervisorError("\(place).directories must be a list of paths")
            }
            services.append(
                ServiceSpec(
                    name: name, command: [resolved] + words.dropFirst(),
                    watchdog: entry["watchdog"]?.boolValue ?? true, directories: directories))
        }
        return SupervisorConfig(services: services, policy: policy)
    }
}

/// A supervisor failure with a message for the person at the terminal.
public struct SupervisorError: Error, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
