import BusSchema

/// What the memo driver's commands came to by the end of a drill, and the database checked against it.
public struct MemoTally: Sendable {
    public var sent = 0
    public var acknowledged = 0
    public var resent = 0
    /// Commands still unacknowledged at the end (the drill waits for them; should be 0).
    public var unacknowledged = 0
    /// Acks other than ok/duplicate: 0 for creates; an edit's `conflict` when a touch had moved the memo.
    public var refused = 0
    public var check = MemoDriver.Check(lost: 0, appliedTwice: 0, stored: 0)

    public init() {}

    /// `driver`'s counts now, and `check`.
    init(_ driver: MemoDriver, check: MemoDriver.Check) {
        self.sent = driver.sent
        self.acknowledged = driver.acknowledged.count
        self.resent = driver.resent
        self.unacknowledged = driver.unacknowledged
        self.refused = driver.refused
        self.check = check
    }

    /// The tally as the `memo` object of a drill's JSON report.
    var value: Value {
        .map([
            "sent": .int(Int64(self.sent)), "acknowledged": .int(Int64(self.acknowledged)),
            "resent": .int(Int64(self.resent)), "unacknowledged": .int(Int64(self.unacknowledged)),
            "refused": .int(Int64(self.refused)), "acknowledged_lost": .int(Int64(self.check.lost)),
            "applied_twice": .int(Int64(self.check.appliedTwice)), "stored": .int(Int64(self.check.stored)),
        ])
    }
}
