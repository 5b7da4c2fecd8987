/// A command to a component from outside the host (schema `component.command` v1), on
/// `cmd/ui/<instance>/`: `refresh_done`, `set_page {page}`, `open`, `close`, …
public struct ComponentCommand: ValueMessage, Hashable {
    public static let schema = SchemaID("component.command", major: 1, minor: 1)
    public static let fields: [FieldSpec] = [
        FieldSpec("instance", "string"), FieldSpec("command", "string"), FieldSpec("args", "object", required: false),
    ]

    public var instance: String
    public var command: String
    public var args: ValueMap?

    public init(instance: String, command: String, args: ValueMap? = nil) {
        self.instance = instance
        self.command = command
        self.args = args
    }

    public func encode(to writer: inout MessagePackWriter) {
        writer.writeMapHeader(2 + (self.args == nil ? 0 : 1))
        writer.writeField("instance", self.instance)
        writer.writeField("command", self.command)
        if let args = self.args {
            writer.write("args")
            writer.write(Value.map(args))
        }
    }

    public init(payload: Value) throws {
        let fields = try PayloadFields(payload)
        self.init(
            instance: try fields.string("instance"), command: try fields.string("command"),
            args: try fields.optional("args", PayloadFields.object)?.value.mapValue)
    }
}
