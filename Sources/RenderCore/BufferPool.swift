import Synchronization

/// Hands out 64-byte-aligned scratch buffers and takes them back, so that repeated frames of
/// the same size allocate nothing once warm.
///
/// Buffers are kept in free lists keyed by their (rounded) size. The pool is thread-safe: a
/// buffer may be returned from any thread (for example a ZeroMQ free callback).
public final class BufferPool: Sendable {
    private let free = Mutex<[Int: [UnsafeMutableRawPointer]]>([:])
    private let dirtyFill: UInt8?

    /// Creates an empty pool.
    /// - Parameter dirtyFill: when set, every buffer handed out is first filled with this byte
    ///   (tests use it to prove that no result depends on a buffer's old contents).
    public init(dirtyFill: UInt8? = nil) {
        self.dirtyFill = dirtyFill
    }

    deinit {
        free.withLock { lists in
            for pointer in lists.values.joined() { pointer.deallocate() }
        }
    }

    /// A buffer of at least `byteCount` bytes, aligned to 64 bytes; contents are unspecified.
    public func take(byteCount: Int) -> PooledBuffer {
        let size = BufferPool.sizeClass(byteCount)
        let reused = free.withLock { lists in lists[size]?.popLast() }
        let pointer = reused ?? UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 64)
        if let dirtyFill { pointer.initializeMemory(as: UInt8.self, repeating: dirtyFill, count: size) }
        return PooledBuffer(pointer: pointer, byteCount: size)
    }

    /// Returns a buffer obtained from ``take(byteCount:)`` for reuse.
    public func give(back buffer: PooledBuffer) {
        free.withLock { lists in lists[buffer.byteCount, default: []].append(buffer.pointer) }
    }

    /// How many buffers are waiting to be reused.
    public var idleCount: Int {
        free.withLock { lists in lists.values.reduce(0) { $0 + $1.count } }
    }

    /// Rounds up to whole 4 KiB pages so slightly different requests share a free list.
    private static func sizeClass(_ byteCount: Int) -> Int {
        (max(byteCount, 64) + 4095) & ~4095
    }
}

/// A scratch buffer lent by a ``BufferPool``; give it back when done.
public struct PooledBuffer: @unchecked Sendable {
    /// The first byte, 64-byte aligned.
    public let pointer: UnsafeMutableRawPointer
    /// The usable size in bytes.
    public let byteCount: Int
}
