import BusSchema
import ServiceSupport

/// What `uibus-supervisor` last wrote to `supervisor.json`: each service's state, restarts and last exit.
public struct SupervisorStatus: Sendable, Equatable {
    public struct Service: Sendable, Equatable {
        public var name: String
        public var state: String
        public var restarts: Int
        public var lastExit: String?
    }

    public var state: String
    public var services: [Service]

    /// Parses the status document's JSON text.
    ///
    /// - Throws: ``ReportError`` (`badStatus`) naming `path` if it is not JSON.
    public init(json: String, path: String) throws {
        let document: Value
        do {
            document = try JSONReader.parse(json)
        } catch {
            throw ReportError(.badStatus, "\(path): \(error)")
        }
        self.state = document["state"]?.stringValue ?? "unknown"
        self.services = (document["services"]?.arrayValue ?? []).map { entry in
            Service(
                name: entry["name"]?.stringValue ?? "?", state: entry["state"]?.stringValue ?? "?",
                restarts: Int(entry["restarts"]?.intValue ?? 0), lastExit: entry["last_exit"]?.stringValue)
        }
    }

    /// Reads `path`.
    ///
    /// - Throws: ``ReportError`` (`badStatus`) if it is missing or not JSON.
    public static func load(path: String) throws -> SupervisorStatus {
        guard let text = try? TextFile.read(path) else {
            throw ReportError(.badStatus, "\(path) does not exist or cannot be read")
        }
        return try SupervisorStatus(json: text, path: path)
    }
}
