/// Every typed message the Swift code defines, for the schema agreement tests.
public enum MessageCatalog {
    public static let all: [any BusMessage.Type] = [
        TouchFrame.self, Health.self, Lifecycle.self, MemoCommand.self, MemoAck.self, MemoChanged.self,
        MemoSnapshot.self,
    ]
}
