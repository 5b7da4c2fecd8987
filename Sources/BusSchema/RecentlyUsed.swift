/// A few keys met lately and their values, found by comparing keys one by one.
///
/// For the handful of keys a hot path meets over and over, interleaved (a subscriber's topics,
/// its publishers' streams, a recognizer's event topics), where comparing a key with each kept
/// one is cheaper than hashing it: the keys met again are usually the very same strings. Once
/// full, a new key replaces the one kept longest; a key that matches is kept in mind and tried
/// first next time.
public struct RecentlyUsed<Key, Value> {
    /// How many keys are kept; a key not kept costs a look at each of them.
    public let capacity: Int
    // Keys and values apart: reading a (key, value) pair out of one array to compare its key
    // copied both, retaining every string in them, for each key compared.
    @usableFromInline var keys: [Key] = []
    @usableFromInline var values: [Value] = []
    @usableFromInline var nextReplaced = 0
    @usableFromInline var lastFound = 0

    public init(capacity: Int) {
        precondition(capacity > 0, "RecentlyUsed needs room for one key")
        self.capacity = capacity
        self.keys.reserveCapacity(capacity)
        self.values.reserveCapacity(capacity)
    }

    /// The value of a kept key that `matches` accepts (see ``slot(where:)``).
    @inlinable
    public mutating func first(where matches: (Key) -> Bool) -> Value? {
        self.slot(where: matches).map { self.values[$0] }
    }

    /// The slot of a kept key that `matches` accepts: the one found last time if it still
    /// matches (runs on one key are common), else the first.
    ///
    /// A slot names its key until ``remember(_:_:)`` puts another there or ``removeAll()`` runs,
    /// so a caller can keep more about a key beside it, by slot.
    @inlinable
    public mutating func slot(where matches: (Key) -> Bool) -> Int? {
        if self.lastFound < self.keys.count, matches(self.keys[self.lastFound]) {
            return self.lastFound
        }
        for index in self.keys.indices where index != self.lastFound && matches(self.keys[index]) {
            self.lastFound = index
            return index
        }
        return nil
    }

    /// The value kept in `slot` (from ``slot(where:)`` or ``remember(_:_:)``).
    @inlinable
    public func value(inSlot slot: Int) -> Value { self.values[slot] }

    /// Keeps `value` under `key`, in place of the key kept longest when full.
    ///
    /// - Returns: the slot `key` now has.
    @inlinable
    @discardableResult
    public mutating func remember(_ key: Key, _ value: Value) -> Int {
        guard self.keys.count == self.capacity else {
            self.keys.append(key)
            self.values.append(value)
            return self.keys.count - 1
        }
        let slot = self.nextReplaced
        self.keys[slot] = key
        self.values[slot] = value
        self.nextReplaced = (slot + 1) % self.capacity
        return slot
    }

    /// Forgets every key.
    public mutating func removeAll() {
        self.keys.removeAll(keepingCapacity: true)
        self.values.removeAll(keepingCapacity: true)
        self.nextReplaced = 0
    }
}

extension RecentlyUsed where Key: Equatable {
    /// The value kept under `key`, if it is kept.
    @inlinable
    public mutating func value(for key: Key) -> Value? { self.first { $0 == key } }
}

extension RecentlyUsed: Sendable where Key: Sendable, Value: Sendable {}

/// A dictionary with ``RecentlyUsed`` in front of it: a key met lately is found by comparison,
/// any other by hashing, and a key met for the first time gets the value `make` gives it.
public struct RecentlyUsedDictionary<Key: Hashable, Value> {
    @usableFromInline var storage: [Key: Value] = [:]
    @usableFromInline var recent: RecentlyUsed<Key, Value>

    /// Every key kept and its value.
    public var all: [Key: Value] { self.storage }

    /// - Parameter recentCapacity: how many keys are found without hashing.
    public init(recentCapacity: Int = 8) {
        self.recent = RecentlyUsed(capacity: recentCapacity)
    }

    /// The value kept under `key`, or the one `make` gives it (kept from then on).
    ///
    /// - Throws: what `make` throws; nothing is kept then.
    @inlinable
    public mutating func value(for key: Key, orMake make: () throws -> Value) rethrows -> Value {
        if let value = self.recent.value(for: key) { return value }
        let value: Value
        if let known = self.storage[key] {
            value = known
        } else {
            value = try make()
            self.storage[key] = value
        }
        self.recent.remember(key, value)
        return value
    }
}

extension RecentlyUsedDictionary: Sendable where Key: Sendable, Value: Sendable {}
