/// The board-wide memo settings.
public struct MemoSettings: MessagePackMap, Hashable {
    /// The order `arrange` uses when a command names none.
    public var arrangeOrder: MemoArrangeOrder
    /// The background image reference, or nil for the plain board.
    public var background: String?

    public init(arrangeOrder: MemoArrangeOrder = .created, background: String? = nil) {
        self.arrangeOrder = arrangeOrder
        self.background = background
    }

    /// Appends the settings as a map.
    public func encode(to writer: inout MessagePackWriter) {
        writer.writeMapHeader(2)
        writer.write("arrange_order", self.arrangeOrder)
        writer.write("background", nullableString: self.background)
    }

    /// Decodes a settings map; missing fields take their defaults.
    public init(from reader: inout MessagePackReader) throws {
        var settings = MemoSettings()
        try reader.readMap { reader, key in
            switch key {
            case "arrange_order":
                settings.arrangeOrder = try reader.readEnum(MemoArrangeOrder.self, field: "settings.arrange_order")
            case "background": settings.background = try reader.readNullable { try $0.readString() }
            default: try reader.skip()
            }
        }
        self = settings
    }
}

extension MemoSettings {
    /// Decodes the map inside a message; its errors name fields as its schema nests them, whatever `path`.
    public init(from reader: inout MessagePackReader, path: String) throws {
        try self.init(from: &reader)
    }
}
