extension String {
    /// Creates a string from UTF-8 bytes, or nil if they are not valid UTF-8.
    ///
    /// ASCII (every key and most values on the bus) takes a fast path: the standard library's
    /// validating initializer is generic and, unspecialized, dominated the codec's profile.
    public init?(validatedUTF8 bytes: UnsafeRawBufferPointer) {
        for byte in bytes where byte >= 0x80 {
            guard let string = String(validating: bytes, as: UTF8.self) else { return nil }
            self = string
            return
        }
        self = String(decoding: bytes, as: UTF8.self)
    }

    /// Whether `bytes` are valid UTF-8, without making a string of ASCII.
    public static func isValidUTF8(_ bytes: UnsafeRawBufferPointer) -> Bool {
        for byte in bytes where byte >= 0x80 { return String(validating: bytes, as: UTF8.self) != nil }
        return true
    }
}
