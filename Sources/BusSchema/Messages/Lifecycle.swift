/// A service's lifecycle event (schema `lifecycle` v1), on `sys/lifecycle/<service>/`.
public struct Lifecycle: BusMessage, Hashable {
    public static let schema = SchemaID("lifecycle", major: 1, minor: 0)
    public static let fields: [FieldSpec] = [
        FieldSpec("service", "string"), FieldSpec("event", "string"), FieldSpec("epoch", "integer"),
        FieldSpec("pid", "integer"), FieldSpec("reason", "string", required: false),
        FieldSpec("exit_code", "integer", required: false),
    ]

    public enum Event: String, Sendable, Hashable, CaseIterable {
        case started, ready, stopping, stopped, resync
        case willResignActive = "will_resign_active"
        case didBecomeActive = "did_become_active"
    }

    public var service: String
    public var event: Event
    public var epoch: UInt64
    public var pid: Int
    public var reason: String?
    /// How a supervised child ended (with `stopped`).
    public var exitCode: Int?

    public init(service: String, event: Event, epoch: UInt64, pid: Int, reason: String? = nil, exitCode: Int? = nil) {
        self.service = service
        self.event = event
        self.epoch = epoch
        self.pid = pid
        self.reason = reason
        self.exitCode = exitCode
    }

    public func encode(to writer: inout MessagePackWriter) {
        writer.writeMapHeader(4 + (self.reason == nil ? 0 : 1) + (self.exitCode == nil ? 0 : 1))
        writer.writeKey("service")
        writer.write(self.service)
        writer.write("event", self.event)
        writer.writeKey("epoch")
        writer.write(self.epoch)
        writer.writeKey("pid")
        writer.write(self.pid)
        if let reason = self.reason {
            writer.writeKey("reason")
            writer.write(reason)
        }
        if let exitCode = self.exitCode {
            writer.writeKey("exit_code")
            writer.write(exitCode)
        }
    }

    public init(from reader: inout MessagePackReader) throws {
        var service: String?
        var event: Event?
        var epoch: UInt64?
        var pid: Int?
        var reason: String?
        var exitCode: Int?
        try reader.readMap { reader, key in
            switch key {
            case "service": service = try reader.readString()
            case "event": event = try reader.readEnum(Event.self, field: "event")
            case "epoch": epoch = try reader.readUInt()
            case "pid": pid = try reader.readInteger()
            case "reason": reason = try reader.readString()
            case "exit_code": exitCode = try reader.readInteger()
            default: try reader.skip()
            }
        }
        self.init(
            service: try reader.require(service, "service"), event: try reader.require(event, "event"),
            epoch: try reader.require(epoch, "epoch"), pid: try reader.require(pid, "pid"), reason: reason,
            exitCode: exitCode)
    }
}
