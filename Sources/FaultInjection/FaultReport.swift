import BusSchema

/// What a fault drill measured.
public struct FaultReport: Sendable {
    /// One fault and what it cost.
    public struct Outcome: Sendable {
        public var fault: FaultPlan.Fault
        /// From the signal (SIGKILL) or SIGCONT to the first health report or `ready` of the
        /// recovered process on the bus; nil if it never came back.
        public var recoveryMs: Double?
        /// From the unexpected exit to the next `ready` line, as the supervisor timed it (SIGKILL only).
        public var supervisorRecoveryMs: Int64?
        /// Messages missing from the drill's own subscriptions during the fault, per hop.
        public var lostByHop: [String: UInt64]
        /// Gaps the services reported in their health during the fault, per service.
        public var gapsReported: [String: UInt64]
        /// Subscribers that asked the memo store for a snapshot after the fault and received
        /// all of it, each with the time from the fault to its snapshot's last chunk.
        public var resyncedMs: [String: Double]
        /// Restarts of the service the supervisor counted for this fault.
        public var restarts: Int
    }

    public var faults: [Outcome] = []
    public var memo = MemoTally()
    /// Messages received per hop over the whole run.
    public var receivedByHop: [String: UInt64] = [:]
    /// The supervisor's exit status after `down`.
    public var supervisorExit: Int32?

    /// Milliseconds to a tenth.
    private static func milliseconds(_ value: Double) -> Value { .double((value * 10).rounded() / 10) }

    /// The whole report as JSON.
    public var json: String {
        func counts(_ map: [String: UInt64]) -> Value {
            .map(ValueMap(map.sorted { $0.key < $1.key }.map { ($0.key, .uint($0.value)) }))
        }
        let faults: [Value] = self.faults.map { outcome in
            var entry: ValueMap = [
                "service": .string(outcome.fault.service), "fault": .string(outcome.fault.kind.rawValue),
                "lost_by_hop": counts(outcome.lostByHop), "gaps_reported": counts(outcome.gapsReported),
                "resynced_ms": .map(
                    ValueMap(
                        outcome.resyncedMs.sorted { $0.key < $1.key }.map { ($0.key, Self.milliseconds($0.value)) })),
                "restarts": .int(Int64(outcome.restarts)),
            ]
            entry["recovery_ms"] = outcome.recoveryMs.map(Self.milliseconds) ?? .null
            entry["supervisor_recovery_ms"] = outcome.supervisorRecoveryMs.map { .int($0) } ?? .null
            return .map(entry)
        }
        let document: ValueMap = [
            "faults": .array(faults), "memo": self.memo.value, "received_by_hop": counts(self.receivedByHop),
            "supervisor_exit": self.supervisorExit.map { .int(Int64($0)) } ?? .null,
        ]
        return Value.map(document).json
    }
}
