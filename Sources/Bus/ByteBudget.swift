/// A queue's byte budget, turned into the message count libzmq's high-water marks understand.
///
/// A high-water mark counts messages, so a queue of 100 000 touch frames is a few megabytes and
/// one of 100 000 rendered frames is a hundred gigabytes: a slow subscriber of 1 MB messages took
/// the proxy to 3 GB in 12 s. The budget follows the largest message the socket has carried
/// lately, rounded up to a power of two: the mark is `bytes / size`, lowered the moment a larger
/// message shows up (at most one message late) and raised again once a window passes without one.
/// Messages queued under the old mark were smaller, so a queue holds about the budget, twice it
/// at worst while the mark comes down.
public struct ByteBudget: Sendable {
    /// The default budget of one queue: the proxy's per subscriber, a publisher's, a subscriber's.
    public static let defaultBytes = 64 << 20
    /// The smallest mark, so a queue of the largest messages still absorbs a short stall.
    public static let minimumMessages: Int32 = 4
    /// How long the largest size is remembered before the mark may rise again.
    public static let windowNs: UInt64 = 5_000_000_000

    public let bytes: Int
    public let maximumMessages: Int32
    /// The message size the current mark is made for.
    public private(set) var sizeClass: Int
    private var largestInWindow = 0
    private var windowEndsNs: UInt64

    /// - Parameters:
    ///   - bytes: the budget.
    ///   - maximumMessages: the mark for small messages, never exceeded.
    public init(bytes: Int, maximumMessages: Int32, nowNs: UInt64) {
        self.bytes = max(bytes, 1)
        self.maximumMessages = max(maximumMessages, Self.minimumMessages)
        self.sizeClass = Self.floor(bytes: self.bytes, messages: self.maximumMessages)
        self.windowEndsNs = nowNs + Self.windowNs
    }

    /// The high-water mark for the current size class.
    public var highWaterMark: Int32 {
        Int32(clamping: min(max(self.bytes / self.sizeClass, Int(Self.minimumMessages)), Int(self.maximumMessages)))
    }

    /// Notes a message of `size` bytes.
    ///
    /// - Returns: the new, lower mark if this message is larger than the mark was made for.
    @inline(__always)
    public mutating func note(_ size: Int) -> Int32? {
        if size > self.largestInWindow { self.largestInWindow = size }
        guard size > self.sizeClass else { return nil }
        return self.resize(to: size)
    }

    /// Ends a window if its time is up.
    ///
    /// - Returns: the new, higher mark if no message of the current size class came in the window.
    public mutating func tick(nowNs: UInt64) -> Int32? {
        guard nowNs >= self.windowEndsNs else { return nil }
        self.windowEndsNs = nowNs + Self.windowNs
        let largest = self.largestInWindow
        self.largestInWindow = 0
        guard self.sizeClass(for: largest) < self.sizeClass else { return nil }
        return self.resize(to: largest)
    }

    private mutating func resize(to size: Int) -> Int32? {
        let before = self.highWaterMark
        self.sizeClass = self.sizeClass(for: size)
        return self.highWaterMark == before ? nil : self.highWaterMark
    }

    private func sizeClass(for size: Int) -> Int {
        max(Self.powerOfTwo(atLeast: size), Self.floor(bytes: self.bytes, messages: self.maximumMessages))
    }

    /// The size below which the count, not the budget, is the limit.
    private static func floor(bytes: Int, messages: Int32) -> Int {
        max(bytes / Int(messages), 1)
    }

    private static func powerOfTwo(atLeast value: Int) -> Int {
        value <= 1 ? 1 : 1 << (Int.bitWidth - (value - 1).leadingZeroBitCount)
    }
}
