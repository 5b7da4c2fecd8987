/// A message, or a map inside one, that starts from its defaults: every generated type (through
/// ``MapFields``) and the hand-written messages, so all of them are built the same way.
public protocol Buildable {
    /// Every field at its schema default, or a placeholder (empty, zero, the first case) where it
    /// has none.
    init()
}

extension Buildable {
    /// A value that starts as ``init()`` (every field at its schema default, or a placeholder where
    /// it has none) and gets the fields `build` sets: the one way to make a message with values,
    /// so no type repeats its property list as an initializer's parameters.
    ///
    /// ```swift
    /// let contact = TouchContact {
    ///     $0.id = 7
    ///     $0.phase = .began
    ///     $0.x = 120
    ///     $0.y = 48
    /// }
    /// ```
    ///
    /// Values are not checked here: decoding checks every field's rule
    /// (``MessagePackReader/readFields(into:path:)``). The closure inlines, so this costs what
    /// assigning the fields costs.
    ///
    /// - Parameter build: Sets the fields that differ from ``init()``.
    /// - Throws: What `build` throws.
    @inlinable @inline(__always)
    public init<Failure: Error>(_ build: (inout Self) throws(Failure) -> Void) throws(Failure) {
        self.init()
        try build(&self)
    }
}
