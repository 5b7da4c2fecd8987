import BusSchema

/// An arena's recognizer machines, in scene order, each kind's machines in an array of their own.
///
/// Per-kind arrays keep every machine mutated in place: an enum of machines would copy a machine
/// out of its case and back on every event, and with it retain its settings and samples. Each
/// event returns the machine's status, which the arena keeps in its slot for its per-frame scans.
struct Recognizers: Sendable {
    fileprivate enum Family: Sendable {
        case tap, longPress, pan, swipe, transform, touchDown
    }

    fileprivate struct Member: Sendable {
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

    init(_ plan: ScenePlan, screen: Rect) {
        var members: [Member] = []
        for entry in plan.entries {
            let (kind, settings) = (entry.spec.kind, entry.spec.settings)
            let member: Member
            switch kind {
            case .tap, .doubleTap: member = Self.add(&self.taps, .tap, kind, settings, screen)
            case .longPress: member = Self.add(&self.longPresses, .longPress, kind, settings, screen)
            case .pan, .edgePan: member = Self.add(&self.pans, .pan, kind, settings, screen)
            case .swipe: member = Self.add(&self.swipes, .swipe, kind, settings, screen)
            case .pinch, .rotation: member = Self.add(&self.transforms, .transform, kind, settings, screen)
            case .touchDown: member = Self.add(&self.touchDowns, .touchDown, kind, settings, screen)
            }
            members.append(member)
        }
        self.members = members
    }

    private static func add<Machine: RecognizerMachine>(
        _ machines: inout [Machine], _ family: Family, _ kind: GestureEvent.Kind, _ settings: RecognizerSettings,
        _ screen: Rect
    ) -> Member {
        machines.append(Machine(kind: kind, settings: settings, screen: screen))
        return Member(family: family, index: machines.count - 1)
    }

    /// Hands `event` to recognizer `index` (in scene order) and returns its proposal and status.
    mutating func handle(
        _ index: Int, _ event: RecognizerEvent, touches: inout FollowedTouches
    ) -> (Proposal?, MachineStatus) {
        // One kind's array, checked once: the arena's single events (timers, closing) would pay
        // for all six through ``withMachines(_:)``.
        let member = self.members[index]
        switch member.family {
        case .tap:
            return self.taps.withUnsafeMutableBufferPointer { Machines.handle($0, member.index, event, &touches) }
        case .longPress:
            return self.longPresses.withUnsafeMutableBufferPointer {
                Machines.handle($0, member.index, event, &touches)
            }
        case .pan:
            return self.pans.withUnsafeMutableBufferPointer { Machines.handle($0, member.index, event, &touches) }
        case .swipe:
            return self.swipes.withUnsafeMutableBufferPointer { Machines.handle($0, member.index, event, &touches) }
        case .transform:
            return self.transforms.withUnsafeMutableBufferPointer { Machines.handle($0, member.index, event, &touches) }
        case .touchDown:
            return self.touchDowns.withUnsafeMutableBufferPointer { Machines.handle($0, member.index, event, &touches) }
        }
    }

    /// The machines reached through buffer pointers, valid only inside ``withMachines(_:)``.
    struct Machines {
        fileprivate let members: [Member]
        fileprivate let taps: UnsafeMutableBufferPointer<TapMachine>
        fileprivate let longPresses: UnsafeMutableBufferPointer<LongPressMachine>
        fileprivate let pans: UnsafeMutableBufferPointer<PanMachine>
        fileprivate let swipes: UnsafeMutableBufferPointer<SwipeMachine>
        fileprivate let transforms: UnsafeMutableBufferPointer<TransformMachine>
        fileprivate let touchDowns: UnsafeMutableBufferPointer<TouchDownMachine>

        /// Hands `event` to recognizer `index` (in scene order) and returns its proposal and status.
        func handle(_ index: Int, _ event: RecognizerEvent, touches: inout FollowedTouches) -> (
            Proposal?, MachineStatus
        ) {
            let member = self.members[index]
            switch member.family {
            case .tap: return Self.handle(self.taps, member.index, event, &touches)
            case .longPress: return Self.handle(self.longPresses, member.index, event, &touches)
            case .pan: return Self.handle(self.pans, member.index, event, &touches)
            case .swipe: return Self.handle(self.swipes, member.index, event, &touches)
            case .transform: return Self.handle(self.transforms, member.index, event, &touches)
            case .touchDown: return Self.handle(self.touchDowns, member.index, event, &touches)
            }
        }

        fileprivate static func handle<Machine: RecognizerMachine>(
            _ machines: UnsafeMutableBufferPointer<Machine>, _ index: Int, _ event: RecognizerEvent,
            _ touches: inout FollowedTouches
        ) -> (Proposal?, MachineStatus) {
            let proposal = machines[index].handle(event, touches: &touches)
            return (proposal, machines[index].status)
        }
    }

    /// Runs `body` with every kind's machines reached through a buffer pointer: one uniqueness
    /// check per kind for a whole frame's events, where each event through `self` checks its
    /// kind's array (and the optimizer hoists the checks of all six out of loops).
    mutating func withMachines<Result>(_ body: (inout Machines) -> Result) -> Result {
        let members = self.members
        return self.taps.withUnsafeMutableBufferPointer { taps in
            self.longPresses.withUnsafeMutableBufferPointer { longPresses in
                self.pans.withUnsafeMutableBufferPointer { pans in
                    self.swipes.withUnsafeMutableBufferPointer { swipes in
                        self.transforms.withUnsafeMutableBufferPointer { transforms in
                            self.touchDowns.withUnsafeMutableBufferPointer { touchDowns in
                                var machines = Machines(
                                    members: members, taps: taps, longPresses: longPresses, pans: pans,
                                    swipes: swipes, transforms: transforms, touchDowns: touchDowns)
                                return body(&machines)
                            }
                        }
                    }
                }
            }
        }
    }

    /// Starts recognizer `index` afresh (status ``MachineStatus/possible``): its touch sequence
    /// is over. Not inlined: inlined into the
    /// arena's per-frame slot loop, the optimizer checks all six arrays' uniqueness on every pass.
    @inline(never)
    mutating func restart(_ index: Int) {
        let member = self.members[index]
        switch member.family {
        case .tap: self.taps[member.index].restart()
        case .longPress: self.longPresses[member.index].restart()
        case .pan: self.pans[member.index].restart()
        case .swipe: self.swipes[member.index].restart()
        case .transform: self.transforms[member.index].restart()
        case .touchDown: self.touchDowns[member.index].restart()
        }
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
    }

    /// Fills in recognizer `index`'s own values of an event about to be published. Mutating only
    /// to read the machine in place: read through `self` (or a read-only buffer) it is copied out,
    /// retaining its settings and samples.
    mutating func describe(_ index: Int, into event: inout GestureEvent) {
        let member = self.members[index]
        switch member.family {
        case .tap: Self.describe(&self.taps, member.index, &event)
        case .longPress: Self.describe(&self.longPresses, member.index, &event)
        case .pan: Self.describe(&self.pans, member.index, &event)
        case .swipe: Self.describe(&self.swipes, member.index, &event)
        case .transform: Self.describe(&self.transforms, member.index, &event)
        case .touchDown: Self.describe(&self.touchDowns, member.index, &event)
        }
    }

    private static func describe<Machine: RecognizerMachine>(
        _ machines: inout [Machine], _ index: Int, _ event: inout GestureEvent
    ) {
        machines.withUnsafeMutableBufferPointer { $0[index].describe(into: &event) }
    }
}
