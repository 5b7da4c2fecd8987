/// A map key as read off the wire, borrowed from the input: compared without making a String.
///
/// Match it against literals in a `switch` (`case "device":`); the literal is a
/// `StaticString`, so matching is a length check and a byte loop.
public struct MessagePackKey: CustomStringConvertible {
    public let bytes: UnsafeRawBufferPointer
    /// Where the key starts in the input, for error messages.
    public let offset: Int

    @inline(__always)
    public static func ~= (pattern: StaticString, key: MessagePackKey) -> Bool {
        let count = pattern.utf8CodeUnitCount
        guard count == key.bytes.count else { return false }
        let expected = pattern.utf8Start
        for index in 0..<count where expected[index] != key.bytes[index] { return false }
        return true
    }

    /// The key as a String.
    ///
    /// - Throws: ``CodecError/Code/invalidUTF8`` if the key is not valid UTF-8.
    public func string() throws -> String {
        guard let string = String(validatedUTF8: self.bytes) else {
            throw CodecError(.invalidUTF8, offset: self.offset, context: "map key")
        }
        return string
    }

    public var description: String { String(decoding: self.bytes, as: UTF8.self) }
}
