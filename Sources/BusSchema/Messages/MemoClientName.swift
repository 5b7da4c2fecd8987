/// The rule for memo client names, which become a topic segment (`memo/ack/<client>/`).
///
/// A name is 1–64 ASCII letters, digits, `_`, `.` or `-`, starting with a letter or digit
/// (`^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$`, as `schemas/memo.command` states). So a name can never
/// hold a `/` (client `a/b` would otherwise hear under client `a`'s prefix), a space or a NUL,
/// and names starting with `_` stay free for reserved topics such as ``invalidAckTopic``.
public enum MemoClientName {
    /// The longest name, in bytes.
    public static let maximumLength = 64
    /// Where the store answers a command whose client is no valid name.
    public static let invalidAckTopic = "memo/ack/_invalid/"

    /// Why `name` is not a valid client name, or nil when it is.
    public static func problem(_ name: String) -> String? {
        let bytes = name.utf8
        guard let first = bytes.first else { return "client is empty" }
        guard bytes.count <= Self.maximumLength else {
            return "client is \(bytes.count) bytes, longer than \(Self.maximumLength)"
        }
        guard Self.isAlphanumeric(first) else { return "client must start with a letter or digit" }
        for byte in bytes
        where !Self.isAlphanumeric(byte) && byte != UInt8(ascii: "_")
            && byte != UInt8(ascii: ".") && byte != UInt8(ascii: "-")
        {
            return "client has a character outside A-Z a-z 0-9 _ . - (byte 0x\(String(byte, radix: 16)))"
        }
        return nil
    }

    /// The topic acks for `client` go to: `memo/ack/<client>/`, or ``invalidAckTopic``.
    public static func ackTopic(for client: String) -> String {
        Self.problem(client) == nil ? "memo/ack/\(client)/" : Self.invalidAckTopic
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
