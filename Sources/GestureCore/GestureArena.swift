import BusSchema

/// One device's recognizers and the rules that decide between them.
///
/// Each recognizer's machine (``RecognizerMachine``, one kind each) proposes transitions
/// (``Proposal``) from the touches it follows; the arena turns them into published states with
/// these rules, applied in scene order (views back to front, recognizers in declaration order) so
/// the outcome never depends on anything but the input:
///
/// 1. **Receive.** A touch reaches the recognizers of the topmost view under its first point and
///    of that view's ancestors, minus those whose receive region excludes the point.
/// 2. **Require-to-fail.** A recognizer that wants to begin or recognize while a recognizer it
///    requires to fail is still deciding waits; it fails if that one begins or recognizes, and
///    goes ahead (at that moment, with its current values) once it fails. A recognizer that is
///    not taking part in the touch sequence counts as failed.
/// 3. **Exclusivity.** Unless declared simultaneous, a recognizer cannot begin while another one
///    sharing a touch is in progress (first come wins), and when it begins or recognizes every
///    other undecided recognizer sharing a touch with it fails.
/// 4. **Cancels touches.** When a recognizer with `cancelsTouches` begins or recognizes, the
///    touch-down recognizers of its view that share a touch and are in progress are cancelled:
///    they stand for the view's own touch handling, which UIKit sends `touchesCancelled`.
struct GestureArena: Sendable {
    private enum Gate: Sendable, Hashable {
        /// Nothing published in this touch sequence.
        case idle
        /// Wants to begin or recognize, held by rule 2; `ended` if its gesture ended meanwhile.
        case waiting(Proposal, ended: Bool)
        /// Began; changes and the end are published.
        case open
        /// Decided (recognized, ended, cancelled or failed) until its touches lift.
        case closed
    }

    private struct Slot: Sendable {
        /// The touches its machine follows.
        var touches = FollowedTouches()
        /// Its machine's status after its last event.
        var status = MachineStatus.possible
        var gate = Gate.idle
        /// Whether it began or recognized in this touch sequence.
        var succeeded = false
        /// Every touch it received in this touch sequence.
        var touchIDs: [Int] = []
    }

    let device: String
    private var plan: ScenePlan
    private var slots: [Slot]
    /// The slots' machines, by the same index.
    private var machines: Recognizers
    private var touched: [Bool]
    private var proposals: [Proposal?]
    private var receivers: [Int] = []
    /// Each recognizer's event with its fixed fields (device, view, kind, name) filled in: copied
    /// and completed for every event, since the generated initializer, out of line with 18
    /// arguments, cost more than the rest of making an event.
    private var templates: [GestureEvent]

    init(device: String, plan: ScenePlan) {
        self.device = device
        self.plan = plan
        let screen = Rect(x: 0, y: 0, width: plan.scene.width, height: plan.scene.height)
        self.slots = Array(repeating: Slot(), count: plan.count)
        self.machines = Recognizers(plan, screen: screen)
        self.touched = Array(repeating: false, count: plan.count)
        self.proposals = Array(repeating: nil, count: plan.count)
        self.templates = Self.templates(device: device, plan: plan)
    }

    private static func templates(device: String, plan: ScenePlan) -> [GestureEvent] {
        plan.entries.indices.map { index in
            GestureEvent {
                $0.tMs = 0
                $0.device = device
                $0.view = plan.viewID(of: index)
                $0.recognizer = plan.entries[index].spec.kind
                $0.state = .failed
                $0.x = 0
                $0.y = 0
                $0.touches = 0
                $0.name = plan.names[index]
            }
        }
    }

    /// Takes a plan that differs from the current one only in recognizer settings and receive
    /// regions (a run-time configuration): touches in flight stay, and every recognizer judges
    /// its next frame by its new settings and every touch landing from now by the new regions.
    mutating func replacePlan(_ plan: ScenePlan) {
        precondition(plan.count == self.slots.count, "a configured plan keeps the recognizers")
        self.plan = plan
        self.templates = Self.templates(device: self.device, plan: plan)
        for index in self.slots.indices { self.machines.configure(index, plan.entries[index].spec.settings) }
    }

    /// The earliest recognizer timer, if any (kept up to date by every mutating entry point).
    private(set) var nextDeadline: SourceInstant?

    private mutating func updateDeadline() {
        var earliest: SourceInstant?
        for index in self.slots.indices {
            if let deadline = self.slots[index].status.deadline, earliest.map({ deadline < $0 }) ?? true {
                earliest = deadline
            }
        }
        self.nextDeadline = earliest
    }

    /// Feeds one frame of this device; appends the gesture events it causes.
    mutating func frameArrived(_ frame: TouchFrame, into events: inout [GestureEngine.Effect]) {
        let now = SourceInstant(nanoseconds: frame.tNs)
        self.timeElapsed(now, into: &events)
        self.deliver(frame, at: now)
        for index in self.slots.indices where self.touched[index] {
            guard let proposal = self.proposals[index] else { continue }
            self.proposals[index] = nil
            // A recognizer failed by an earlier resolution in this frame has nothing left to propose.
            if self.slots[index].gate == .closed { continue }
            self.resolve(index, proposal, at: now, into: &events)
        }
        self.settle(at: now, into: &events)
        self.slots.withUnsafeMutableBufferPointer { slots in
            for index in slots.indices where self.touched[index] { slots[index].touches.clearFrame() }
        }
        self.updateDeadline()
    }

    /// Hands the frame's contacts to the recognizers following them (or receiving a new one) and
    /// collects every touched recognizer's proposal. Every recognizer sees the frame before any
    /// proposal is resolved, so the rules judge each proposal against the others' state after this
    /// frame, whatever the scene order. The hot loop of the recognizer: slots are reached through
    /// a buffer pointer, so no element is copied or checked for uniqueness on each access.
    private mutating func deliver(_ frame: TouchFrame, at now: SourceInstant) {
        var receivers: [Int] = []
        swap(&receivers, &self.receivers)
        defer { swap(&receivers, &self.receivers) }
        let plan = self.plan
        self.touched.withUnsafeMutableBufferPointer { touched in
            self.proposals.withUnsafeMutableBufferPointer { proposals in
                self.slots.withUnsafeMutableBufferPointer { slots in
                    for index in touched.indices { touched[index] = false }
                    for contact in frame.contacts {
                        switch contact.phase {
                        case .began:
                            plan.receivers(x: contact.x, y: contact.y, into: &receivers)
                            for index in receivers where !slots[index].status.isDone {
                                slots[index].touches.land(id: contact.id, x: contact.x, y: contact.y)
                                slots[index].touchIDs.append(contact.id)
                                touched[index] = true
                            }
                        case .moved, .stationary:
                            for index in slots.indices
                            where slots[index].touches.move(id: contact.id, x: contact.x, y: contact.y) {
                                touched[index] = true
                            }
                        case .ended, .cancelled:
                            let cancelled = contact.phase == .cancelled
                            for index in slots.indices
                            where slots[index].touches.lift(
                                id: contact.id, x: contact.x, y: contact.y, cancelled: cancelled)
                            {
                                touched[index] = true
                            }
                        }
                    }
                    self.machines.withMachines { machines in
                        for index in slots.indices where touched[index] && !slots[index].status.isDone {
                            slots[index].touches.frameJudged()
                            (proposals[index], slots[index].status) = machines.handle(
                                index, .frameEnded(at: now), touches: &slots[index].touches)
                        }
                    }
                }
            }
        }
    }

    /// Fires every recognizer timer due at or before `now`, in time order.
    mutating func timeElapsed(_ now: SourceInstant, into events: inout [GestureEngine.Effect]) {
        while let deadline = self.nextDeadline, deadline <= now {
            for index in self.slots.indices where self.slots[index].status.deadline == deadline {
                let event = RecognizerEvent.deadlinePassed(at: deadline)
                if let proposal = self.send(event, to: index) {
                    self.resolve(index, proposal, at: deadline, into: &events)
                }
            }
            self.settle(at: deadline, into: &events)
            self.updateDeadline()
        }
    }

    // MARK: - Rules

    private enum Decision {
        case go
        case wait
        case blocked
    }

    private func decide(_ index: Int) -> Decision {
        // Rule 2: wait for the recognizers this one requires to fail.
        var mustWait = false
        for other in self.plan.requireToFail[index] {
            let slot = self.slots[other]
            if slot.succeeded || slot.gate == .open { return .blocked }
            switch slot.gate {
            case .waiting: mustWait = true
            case .idle where self.isParticipating(other) && !self.slots[other].status.isDone: mustWait = true
            default: break
            }
        }
        if mustWait { return .wait }
        // Rule 3: first come wins against a gesture in progress it may not share touches with.
        for other in self.slots.indices where other != index && self.slots[other].gate == .open {
            if !self.plan.isSimultaneous(index, other), self.sharesTouch(index, other) { return .blocked }
        }
        return .go
    }

    /// Whether a recognizer takes part in the current touch sequence (so others may wait for it).
    private func isParticipating(_ index: Int) -> Bool {
        !self.slots[index].touches.isEmpty || self.slots[index].status.isUnderway
    }

    private func sharesTouch(_ a: Int, _ b: Int) -> Bool {
        self.slots[a].touchIDs.contains { self.slots[b].touchIDs.contains($0) }
    }

    private mutating func resolve(
        _ index: Int, _ proposal: Proposal, at now: SourceInstant, into events: inout [GestureEngine.Effect]
    ) {
        switch (proposal, self.slots[index].gate) {
        case (.begin, _), (.recognize, _):
            switch self.decide(index) {
            case .go: self.start(index, proposal, at: now, into: &events)
            case .wait: self.slots[index].gate = .waiting(proposal, ended: false)
            case .blocked: self.fail(index, at: now, into: &events)
            }
        case (.change, .open):
            Self.publish(self.event(index, .changed, at: now), into: &events)
        case (.end, .open):
            self.slots[index].gate = .closed
            Self.publish(self.event(index, .ended, at: now), into: &events)
        case (.end, .waiting(let held, _)):
            // Ended while held: published as began + ended when the wait is over.
            self.slots[index].gate = .waiting(held, ended: true)
        case (.cancel, .open):
            self.slots[index].gate = .closed
            Self.publish(self.event(index, .cancelled, at: now), into: &events)
        case (.cancel, _), (.fail, _):
            self.fail(index, at: now, into: &events)
        case (.change, _), (.end, _):
            break
        }
    }

    /// Publishes a begin or recognition and applies rules 3 and 4 to the others.
    private mutating func start(
        _ index: Int, _ proposal: Proposal, at now: SourceInstant, into events: inout [GestureEngine.Effect]
    ) {
        let ended: Bool
        if case .waiting(_, let wasEnded) = self.slots[index].gate { ended = wasEnded } else { ended = false }
        self.slots[index].succeeded = true
        if proposal == .recognize {
            self.slots[index].gate = .closed
            Self.publish(self.event(index, .recognized, at: now), into: &events)
        } else {
            self.slots[index].gate = ended ? .closed : .open
            Self.publish(self.event(index, .began, at: now), into: &events)
            if ended { Self.publish(self.event(index, .ended, at: now), into: &events) }
        }
        for other in self.slots.indices where other != index && !self.plan.isSimultaneous(index, other) {
            guard self.sharesTouch(index, other) else { continue }
            switch self.slots[other].gate {
            case .waiting: self.fail(other, at: now, into: &events)
            case .idle where !self.slots[other].status.isDone: self.fail(other, at: now, into: &events)
            default: break
            }
        }
        if self.plan.entries[index].spec.cancelsTouches {
            for other in self.plan.touchDownSiblings(of: index)
            where self.slots[other].gate == .open && self.sharesTouch(index, other) {
                self.slots[other].gate = .closed
                self.close(other)
                Self.publish(self.event(other, .cancelled, at: now), into: &events)
            }
        }
    }

    private mutating func fail(_ index: Int, at now: SourceInstant, into events: inout [GestureEngine.Effect]) {
        let wasOpen = self.slots[index].gate == .open
        self.slots[index].gate = .closed
        self.close(index)
        Self.publish(self.event(index, wasOpen ? .cancelled : .failed, at: now), into: &events)
    }

    /// Tells a recognizer the arena decided against it: it ignores input until its touches lift.
    private mutating func close(_ index: Int) {
        _ = self.send(.arenaClosed, to: index)
    }

    /// Hands `event` to recognizer `index`, keeps its status and returns its proposal.
    private mutating func send(_ event: RecognizerEvent, to index: Int) -> Proposal? {
        let (proposal, status) = self.machines.handle(index, event, touches: &self.slots[index].touches)
        self.slots[index].status = status
        return proposal
    }

    /// Releases or fails waiting recognizers until nothing changes, then resets finished ones.
    private mutating func settle(at now: SourceInstant, into events: inout [GestureEngine.Effect]) {
        var changed = true
        while changed {
            changed = false
            for index in self.slots.indices {
                guard case .waiting(let proposal, _) = self.slots[index].gate else { continue }
                switch self.decide(index) {
                case .go: self.start(index, proposal, at: now, into: &events)
                case .blocked: self.fail(index, at: now, into: &events)
                case .wait: continue
                }
                changed = true
            }
        }
        self.slots.withUnsafeMutableBufferPointer { slots in
            for index in slots.indices {
                if case .waiting = slots[index].gate { continue }
                let status = slots[index].status
                let finished = status.isDone && slots[index].touches.down.isEmpty
                if finished {
                    // Back to possible: the touch arrays' and the machine's storage kept.
                    slots[index].touches.reset()
                    slots[index].status = .possible
                    self.machines.restart(index)
                }
                if finished || (slots[index].gate == .idle && slots[index].touches.isEmpty && !status.isUnderway) {
                    slots[index].gate = .idle
                    slots[index].succeeded = false
                    if !slots[index].touchIDs.isEmpty { slots[index].touchIDs.removeAll(keepingCapacity: true) }
                }
            }
        }
    }

    // MARK: - Events

    /// Appends a gesture event. The first one of a frame reserves room for a few: a frame that
    /// publishes usually publishes two or three, and growing one by one reallocated each time.
    private static func publish(_ event: consuming GestureEvent, into events: inout [GestureEngine.Effect]) {
        if events.isEmpty { events.reserveCapacity(4) }
        events.append(.publish(event))
    }

    private mutating func event(_ index: Int, _ state: GestureEvent.State, at now: SourceInstant) -> GestureEvent {
        var event = self.templates[index]
        event.tMs = now.milliseconds
        event.state = state
        // Read in place: copying the slot would retain every array inside it.
        (event.x, event.y) = self.slots[index].touches.location
        event.touches = self.slots[index].touches.count
        if state != .failed { self.machines.describe(index, into: &event) }
        // Within the schema's ranges, so every subscriber accepts it: a velocity over frames a
        // nanosecond apart or a pinch from a zero span would otherwise be refused downstream.
        event.clampNumbers()
        return event
    }
}
