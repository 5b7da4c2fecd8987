import BusSchema

/// Cancels contacts that have had no event for too long, so no touch is ever stuck down.
///
/// A contact's own events are its `began` and `moved` phases (a finger held still on a real
/// screen sends nothing). When a contact has been silent for ``timeout``, the guard emits a
/// frame for its device with the contact `cancelled` and drops every later report of that id
/// until it ends. Time is an input, on the source's clock: frames carry their own time, and
/// ``Event/timeElapsed(at:)`` tells the guard the time when nothing arrives; ``Effect/wake(at:)``
/// asks for that call.
/// Frames leave the guard renumbered per device, so cancellation frames fit in the sequence.
public struct StuckTouchGuard: Sendable {
    public enum Event: Sendable, Hashable {
        /// A frame arrived from the decoder or a script.
        case frameArrived(TouchFrame)
        /// Time passed with nothing arriving.
        case timeElapsed(at: SourceInstant)
        /// The app resigned (`false`) or regained (`true`) the active state, as `will_resign_active`
        /// and `did_become_active` on `sys/lifecycle/` say. Resigning cancels every contact down, as
        /// UIKit sends `touchesCancelled`; a contact that begins while inactive is dropped until it
        /// ends, so the UI never sees a touch without its beginning.
        case activeChanged(Bool, at: SourceInstant)
    }

    public enum Effect: Sendable, Hashable {
        /// Publish this frame.
        case publish(TouchFrame)
        /// Call ``handle(_:)`` with ``Event/timeElapsed(at:)`` at this instant (the earliest deadline).
        case wake(at: SourceInstant)
    }

    private struct Tracked: Sendable {
        var contact: TouchContact
        var lastEvent: SourceInstant
    }

    private struct DeviceState: Sendable {
        var frame: UInt64 = 0
        var live: [Int: Tracked] = [:]
        var order: [Int] = []
        /// Ids cancelled here that the source still reports, until the source ends them.
        var dead: Set<Int> = []

        /// The device's next frame, numbered after the last one it sent.
        mutating func publish(_ contacts: [TouchContact], of device: String, tNs: Int64) -> Effect {
            self.frame += 1
            let number = self.frame
            return .publish(
                TouchFrame {
                    $0.device = device
                    $0.frame = number
                    $0.tNs = tNs
                    $0.contacts = contacts
                })
        }
    }

    /// How long a contact may stay silent (default 10 s).
    public let timeout: Duration
    private var devices: [String: DeviceState] = [:]
    private var active = true

    public init(timeout: Duration = .seconds(10)) {
        self.timeout = timeout
    }

    public mutating func handle(_ event: Event) -> [Effect] {
        var effects: [Effect] = []
        switch event {
        case .frameArrived(let frame):
            self.expire(before: SourceInstant(nanoseconds: frame.tNs), into: &effects)
            self.forward(frame, into: &effects)
        case .timeElapsed(let instant):
            self.expire(before: instant, into: &effects)
        case .activeChanged(let active, let instant):
            self.expire(before: instant, into: &effects)
            if self.active, !active { self.cancelAll(at: instant, into: &effects) }
            self.active = active
        }
        if let deadline = self.nextDeadline { effects.append(.wake(at: deadline)) }
        return effects
    }

    /// The earliest instant at which some contact will be cancelled, if any is live.
    public var nextDeadline: SourceInstant? {
        self.devices.values.lazy.flatMap { $0.live.values }.map { $0.lastEvent + self.timeout }.min()
    }

    /// Every pending cancellation, each at its deadline: the end of a finite source, so that every
    /// contact ends.
    public mutating func flush() -> [TouchFrame] {
        var frames: [TouchFrame] = []
        while let deadline = self.nextDeadline {
            for case .publish(let frame) in self.handle(.timeElapsed(at: deadline)) { frames.append(frame) }
        }
        return frames
    }

    private mutating func forward(_ frame: TouchFrame, into effects: inout [Effect]) {
        var state = self.devices[frame.device] ?? DeviceState()
        var contacts: [TouchContact] = []
        contacts.reserveCapacity(frame.contacts.count)
        for contact in frame.contacts {
            if contact.phase == .began, !self.active {
                state.dead.insert(contact.id)
                continue
            }
            if state.dead.contains(contact.id) {
                // The source still reports a contact cancelled here: drop it until it ends or restarts.
                if contact.phase == .began {
                    state.dead.remove(contact.id)
                } else {
                    if contact.phase == .ended || contact.phase == .cancelled { state.dead.remove(contact.id) }
                    continue
                }
            }
            switch contact.phase {
            case .began, .moved:
                if state.live[contact.id] == nil { state.order.append(contact.id) }
                state.live[contact.id] = Tracked(contact: contact, lastEvent: SourceInstant(nanoseconds: frame.tNs))
            case .stationary:
                state.live[contact.id]?.contact = contact
            case .ended, .cancelled:
                state.live[contact.id] = nil
                state.order.removeAll { $0 == contact.id }
            }
            contacts.append(contact)
        }
        if !contacts.isEmpty { effects.append(state.publish(contacts, of: frame.device, tNs: frame.tNs)) }
        self.devices[frame.device] = state
    }

    private mutating func expire(before instant: SourceInstant, into effects: inout [Effect]) {
        for device in self.devices.keys.sorted() {
            var state = self.devices[device]!
            // Cancel at each distinct deadline in order, so the frames' times never go backwards.
            while let deadline = state.live.values.map({ $0.lastEvent + self.timeout }).min(), deadline <= instant {
                var contacts: [TouchContact] = []
                for id in state.order {
                    guard let tracked = state.live[id] else { continue }
                    var contact = tracked.contact
                    if tracked.lastEvent + self.timeout <= deadline {
                        contact.phase = .cancelled
                        state.live[id] = nil
                        state.dead.insert(id)
                    } else {
                        contact.phase = .stationary
                    }
                    contacts.append(contact)
                }
                state.order.removeAll { state.live[$0] == nil }
                effects.append(state.publish(contacts, of: device, tNs: deadline.nanoseconds))
            }
            self.devices[device] = state
        }
    }

    /// Cancels every live contact of every device (devices in name order), at `instant`.
    private mutating func cancelAll(at instant: SourceInstant, into effects: inout [Effect]) {
        for device in self.devices.keys.sorted() {
            var state = self.devices[device]!
            guard !state.order.isEmpty else { continue }
            var contacts: [TouchContact] = []
            for id in state.order {
                guard var contact = state.live[id]?.contact else { continue }
                contact.phase = .cancelled
                contacts.append(contact)
                state.dead.insert(id)
            }
            state.live.removeAll()
            state.order.removeAll()
            effects.append(state.publish(contacts, of: device, tNs: instant.nanoseconds))
            self.devices[device] = state
        }
    }
}
