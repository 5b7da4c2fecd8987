import BusSchema

/// An arena's recognizer machines, in scene order, each kind's machines in an array of their own.
///
/// Per-kind arrays keep every machine mutated in place: an enum of machines would copy a machine
/// out of its case and back on every event, and with it retain its settings and samples. The
/// status of each machine is kept beside them, so the arena's per-frame scans read one flat array.
struct Recognizers: Sendable {
    private enum Family: Sendable {
        case tap, longPress, pan, swipe, transform, touchDown
    }

    private struct Member: Sendable {
        var family: Family
        /// The index in the family's array.
        var index: Int
    }

    private let members: [Member]
    private var taps: [TapMachine] = []
    private var longPresses: [LongPressMachine] = []
    private var pans: [PanMachine] = []
    private var swipes: [SwipeMachine] = []
    private var transforms: [TransformMachine] = []
    private var touchDowns: [TouchDownMachine] = []
    /// Each machine's status after its last event.
    private(set) var statuses: [MachineStatus]

    init(_ plan: ScenePlan, screen: Rect) {
        var members: [Member] = []
        for entry in plan.entries {
            let (kind, settings) = (entry.spec.kind, entry.spec.settings)
            switch kind {
            case .tap, .doubleTap:
                members.append(Member(family: .tap, index: self.taps.count))
                self.taps.append(TapMachine(kind: kind, settings: settings, screen: screen))
            case .longPress:
                members.append(Member(family: .longPress, index: self.longPresses.count))
                self.longPresses.append(LongPressMachine(kind: kind, settings: settings, screen: screen))
            case .pan, .edgePan:
                members.append(Member(family: .pan, index: self.pans.count))
                self.pans.append(PanMachine(kind: kind, settings: settings, screen: screen))
            case .swipe:
                members.append(Member(family: .swipe, index: self.swipes.count))
                self.swipes.append(SwipeMachine(kind: kind, settings: settings, screen: screen))
            case .pinch, .rotation:
                members.append(Member(family: .transform, index: self.transforms.count))
                self.transforms.append(TransformMachine(kind: kind, settings: settings, screen: screen))
            case .touchDown:
                members.append(Member(family: .touchDown, index: self.touchDowns.count))
                self.touchDowns.append(TouchDownMachine(kind: kind, settings: settings, screen: screen))
            }
        }
        self.members = members
        self.statuses = Array(repeating: MachineStatus(), count: members.count)
    }

    /// Hands `event` to recognizer `index` (in scene order) and returns its proposal.
    mutating func handle(_ index: Int, _ event: RecognizerEvent, touches: borrowing FollowedTouches) -> Proposal? {
        let member = self.members[index]
        switch member.family {
        case .tap: return Self.handle(&self.taps, member.index, event, touches, &self.statuses[index])
        case .longPress: return Self.handle(&self.longPresses, member.index, event, touches, &self.statuses[index])
        case .pan: return Self.handle(&self.pans, member.index, event, touches, &self.statuses[index])
        case .swipe: return Self.handle(&self.swipes, member.index, event, touches, &self.statuses[index])
        case .transform: return Self.handle(&self.transforms, member.index, event, touches, &self.statuses[index])
        case .touchDown: return Self.handle(&self.touchDowns, member.index, event, touches, &self.statuses[index])
        }
    }

    private static func handle<Machine: RecognizerMachine>(
        _ machines: inout [Machine], _ index: Int, _ event: RecognizerEvent, _ touches: borrowing FollowedTouches,
        _ status: inout MachineStatus
    ) -> Proposal? {
        let proposal = machines[index].handle(event, touches: touches)
        status = machines[index].status
        return proposal
    }

    /// Gives recognizer `index` new settings (a run-time configuration).
    mutating func configure(_ index: Int, _ settings: RecognizerSettings) {
        let member = self.members[index]
        switch member.family {
        case .tap: self.taps[member.index].settings = settings
        case .longPress: self.longPresses[member.index].settings = settings
        case .pan: self.pans[member.index].settings = settings
        case .swipe: self.swipes[member.index].settings = settings
        case .transform: self.transforms[member.index].settings = settings
        case .touchDown: self.touchDowns[member.index].settings = settings
        }
        self.statuses[index] = self.status(member)
    }

    private func status(_ member: Member) -> MachineStatus {
        switch member.family {
        case .tap: self.taps[member.index].status
        case .longPress: self.longPresses[member.index].status
        case .pan: self.pans[member.index].status
        case .swipe: self.swipes[member.index].status
        case .transform: self.transforms[member.index].status
        case .touchDown: self.touchDowns[member.index].status
        }
    }

    /// Fills in recognizer `index`'s own values of an event about to be published.
    func describe(_ index: Int, into event: inout GestureEvent) {
        let member = self.members[index]
        switch member.family {
        case .tap: self.taps[member.index].describe(into: &event)
        case .longPress: self.longPresses[member.index].describe(into: &event)
        case .pan: self.pans[member.index].describe(into: &event)
        case .swipe: self.swipes[member.index].describe(into: &event)
        case .transform: self.transforms[member.index].describe(into: &event)
        case .touchDown: self.touchDowns[member.index].describe(into: &event)
        }
    }
}
