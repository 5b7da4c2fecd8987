/// The frames of one received message, in buffers that are reused from message to message.
public struct Frames: Sendable {
    private var buffers: [[UInt8]] = []
    public private(set) var count = 0

    public init() {}

    /// Creates frames holding copies of `parts`.
    public init(_ parts: [[UInt8]]) {
        for part in parts { part.withUnsafeBytes { self.append($0) } }
    }

    public subscript(index: Int) -> [UInt8] {
        precondition(index < self.count, "frame \(index) of \(self.count)")
        return self.buffers[index]
    }

    /// The total size of all frames in bytes.
    public var byteCount: Int { self.buffers.prefix(self.count).reduce(0) { $0 + $1.count } }

    /// Forgets the frames but keeps their buffers' capacity.
    mutating func removeAll() {
        self.count = 0
    }

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        if self.count == self.buffers.count { self.buffers.append([]) }
        self.buffers[self.count].removeAll(keepingCapacity: true)
        self.buffers[self.count].append(contentsOf: bytes)
        self.count += 1
    }

    /// Calls `body` with frame `index`'s bytes, without copying them.
    public func withFrame<R>(_ index: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        precondition(index < self.count, "frame \(index) of \(self.count)")
        return try self.buffers[index].withUnsafeBytes(body)
    }
}
