import BusSchema

/// Turns a device's raw evdev events into ``TouchFrame``s (Linux multitouch protocol B, with a
/// fallback for protocol A devices).
///
/// Protocol B (`Documentation/input/multi-touch-protocol.rst`): `ABS_MT_SLOT` selects a slot,
/// `ABS_MT_TRACKING_ID` ≥ 0 starts a contact in it and −1 lifts it, and `SYN_REPORT` ends a frame.
/// Values that did not change are not re-sent, so each slot keeps its last values. After
/// `SYN_DROPPED` every event up to the next `SYN_REPORT` is discarded and every contact in flight
/// is cancelled; the same happens on device removal. A contact whose `ABS_MT_TOOL_TYPE` becomes
/// `MT_TOOL_PALM` is cancelled and ignored until its slot gets a new tracking id.
///
/// Protocol A devices (no slots; `SYN_MT_REPORT` after each contact) are recognised by their first
/// `SYN_MT_REPORT`; contacts are matched to the previous frame's by their order in the frame.
///
/// Single-touch devices (`ABS_X`/`ABS_Y` and `BTN_TOUCH`, no `ABS_MT_*` axis) give one contact,
/// down while `BTN_TOUCH` is 1, with a new id for each touch. A device is taken as multitouch when
/// its description has multitouch axes or once any `ABS_MT_*` event arrives (multitouch devices
/// send the single-touch emulation too, always alongside their `ABS_MT_*` events).
public struct MultitouchDecoder: Sendable {
    /// What happened on the device.
    public enum Event: Sendable, Hashable {
        /// The device (or recording) delivered one event.
        case eventRead(InputEvent)
        /// The device went away at the given time; every contact is cancelled.
        case deviceRemoved(at: SourceInstant)
    }

    private enum State: Sendable {
        /// Events are applied to the slots.
        case reading
        /// `SYN_DROPPED` was seen: events are discarded until the next `SYN_REPORT`.
        case droppingToReport
    }

    private struct Slot: Sendable {
        var trackingID: Int32 = -1
        var x: Int32 = 0
        var y: Int32 = 0
        var pressure: Int32 = 0
        var major: Int32 = 0
        var tool: Int32 = EventCode.toolFinger
        /// A value changed since the last frame.
        var touched = false
        /// The tracking id of the contact published as began and not yet ended.
        var live: Int32?
        /// A tracking id whose updates are ignored (cancelled as a palm or by a resync).
        var suppressed: Int32?
        var lastContact = TouchContact {
            $0.id = 0
            $0.phase = .began
            $0.x = 0
            $0.y = 0
        }
    }

    private var state = State.reading
    private let device: String
    private let mapper: CoordinateMapper
    private let reportsTool: Bool
    private var slots: [Slot]
    private var currentSlot = 0
    /// Contacts lifted earlier in the frame being assembled (a slot can lift and restart in one frame).
    private var pendingEnds: [TouchContact] = []
    private var frameNumber: UInt64 = 0

    private var usesProtocolA = false
    private var isMultitouch: Bool
    /// The single-touch contact: its values, whether `BTN_TOUCH` is down, and whether it is ignored
    /// until it lifts (after `SYN_DROPPED`).
    private var single = Slot()
    private var singleDown = false
    private var singleSuppressed = false
    private var nextSingleID: Int32 = 0
    private var packet = Slot()
    private var packets: [Slot] = []
    private var protocolAContacts: [TouchContact] = []
    private var nextProtocolAID = 0

    /// - Parameters:
    ///   - device: the device name used in frames and topics (`d0`).
    ///   - description: the device's axes (slot count, ranges for mapping to points).
    ///   - mapper: how device units become scene points.
    public init(device: String, description: DeviceDescription, mapper: CoordinateMapper) {
        self.device = device
        self.mapper = mapper
        self.reportsTool = description.axes[EventCode.mtToolType] != nil
        self.isMultitouch = description.axes.keys.contains { Self.multitouchCodes.contains($0) }
        self.slots = Array(repeating: Slot(), count: min(max(description.slotCount ?? 16, 1), 64))
    }

    /// `ABS_MT_SLOT` … `ABS_MT_TOOL_Y`: any of these marks a multitouch device.
    private static let multitouchCodes: ClosedRange<UInt16> = EventCode.mtSlot...0x3d

    /// Applies one event; returns the frame it completed, if any.
    public mutating func handle(_ event: Event) -> TouchFrame? {
        switch (self.state, event) {
        case (_, .deviceRemoved(let instant)):
            self.state = .reading
            let frame = self.cancelAll(at: instant, keepSuppressed: false)
            self.slots = Array(repeating: Slot(), count: self.slots.count)
            (self.single, self.singleDown, self.singleSuppressed) = (Slot(), false, false)
            return frame
        case (.droppingToReport, .eventRead(let input)):
            guard input.type == EventCode.synType, input.code == EventCode.synReport else { return nil }
            self.state = .reading
            return self.cancelAll(at: input.time, keepSuppressed: true)
        case (.reading, .eventRead(let input)):
            return self.apply(input)
        }
    }

    private mutating func apply(_ input: InputEvent) -> TouchFrame? {
        switch input.type {
        case EventCode.synType:
            switch input.code {
            case EventCode.synReport:
                if self.usesProtocolA { return self.protocolAFrame(at: input.time) }
                return self.isMultitouch ? self.frame(at: input.time) : self.singleTouchFrame(at: input.time)
            case EventCode.synMTReport:
                self.usesProtocolA = true
                self.isMultitouch = true
                if self.packet.touched { self.packets.append(self.packet) }
                self.packet = Slot()
            case EventCode.synDropped:
                self.state = .droppingToReport
            default: break
            }
        case EventCode.keyType where input.code == EventCode.buttonTouch:
            self.singleDown = input.value != 0
            self.single.touched = true
        case EventCode.absType:
            if Self.multitouchCodes.contains(input.code) { self.isMultitouch = true }
            switch input.code {
            case EventCode.absX: (self.single.x, self.single.touched) = (input.value, true)
            case EventCode.absY: (self.single.y, self.single.touched) = (input.value, true)
            case EventCode.absPressure: (self.single.pressure, self.single.touched) = (input.value, true)
            default: break
            }
            if input.code == EventCode.mtSlot {
                self.currentSlot = Int(input.value)
                if (0..<64).contains(self.currentSlot), self.currentSlot >= self.slots.count {
                    self.slots.append(contentsOf: repeatElement(Slot(), count: self.currentSlot + 1 - self.slots.count))
                }
                return nil
            }
            // Protocol A is only known at the first SYN_MT_REPORT, so every value also goes to the packet.
            Self.set(input, in: &self.packet)
            if !self.usesProtocolA, self.slots.indices.contains(self.currentSlot) { self.setSlotValue(input) }
        default: break
        }
        return nil
    }

    private mutating func setSlotValue(_ input: InputEvent) {
        var slot = self.slots[self.currentSlot]
        if input.code == EventCode.mtTrackingID {
            guard input.value != slot.trackingID else { return }
            if slot.live != nil {
                var ended = slot.lastContact
                ended.phase = .ended
                self.pendingEnds.append(ended)
                slot.live = nil
            }
            slot.suppressed = nil
            slot.trackingID = input.value
            slot.touched = true
        } else {
            Self.set(input, in: &slot)
        }
        self.slots[self.currentSlot] = slot
    }

    /// Stores a per-contact axis value in `slot`.
    private static func set(_ input: InputEvent, in slot: inout Slot) {
        switch input.code {
        case EventCode.mtPositionX: slot.x = input.value
        case EventCode.mtPositionY: slot.y = input.value
        case EventCode.mtPressure: slot.pressure = input.value
        case EventCode.mtTouchMajor: slot.major = input.value
        case EventCode.mtToolType: slot.tool = input.value
        default: return
        }
        slot.touched = true
    }

    private mutating func frame(at time: SourceInstant) -> TouchFrame? {
        var contacts = self.pendingEnds
        self.pendingEnds.removeAll()
        for index in self.slots.indices {
            var slot = self.slots[index]
            defer {
                slot.touched = false
                self.slots[index] = slot
            }
            guard slot.trackingID >= 0, slot.suppressed != slot.trackingID else { continue }
            if slot.tool == EventCode.toolPalm {
                // A palm is not a touch: cancel the contact if it was published, then ignore it.
                if slot.live != nil {
                    var cancelled = slot.lastContact
                    cancelled.phase = .cancelled
                    contacts.append(cancelled)
                    slot.live = nil
                }
                slot.suppressed = slot.trackingID
                continue
            }
            let phase: TouchContact.Phase = slot.live == nil ? .began : (slot.touched ? .moved : .stationary)
            slot.live = slot.trackingID
            slot.lastContact = self.contact(Int(slot.trackingID), phase, slot)
            contacts.append(slot.lastContact)
        }
        return self.emit(contacts, at: time)
    }

    /// The frame of a single-touch device: its one contact while `BTN_TOUCH` is down, and its end.
    private mutating func singleTouchFrame(at time: SourceInstant) -> TouchFrame? {
        var slot = self.single
        defer {
            slot.touched = false
            self.single = slot
        }
        if self.singleSuppressed {
            if !self.singleDown { self.singleSuppressed = false }
            return nil
        }
        if self.singleDown {
            let phase: TouchContact.Phase = slot.live == nil ? .began : (slot.touched ? .moved : .stationary)
            if slot.live == nil {
                slot.trackingID = self.nextSingleID
                self.nextSingleID = self.nextSingleID == .max ? 0 : self.nextSingleID + 1
            }
            slot.live = slot.trackingID
            slot.lastContact = self.contact(Int(slot.trackingID), phase, slot)
            return self.emit([slot.lastContact], at: time)
        }
        guard slot.live != nil else { return nil }
        slot.live = nil
        slot.lastContact = self.contact(Int(slot.trackingID), .ended, slot)
        return self.emit([slot.lastContact], at: time)
    }

    private mutating func protocolAFrame(at time: SourceInstant) -> TouchFrame? {
        if self.packet.touched { self.packets.append(self.packet) }
        self.packet = Slot()
        var contacts: [TouchContact] = []
        var current: [TouchContact] = []
        for (index, packet) in self.packets.enumerated() {
            if index < self.protocolAContacts.count {
                let previous = self.protocolAContacts[index]
                var moved = self.contact(previous.id, .moved, packet)
                if moved.x == previous.x, moved.y == previous.y { moved.phase = .stationary }
                current.append(moved)
            } else {
                current.append(self.contact(self.nextProtocolAID, .began, packet))
                self.nextProtocolAID += 1
            }
        }
        contacts = current
        for var gone in self.protocolAContacts.dropFirst(self.packets.count) {
            gone.phase = .ended
            contacts.append(gone)
        }
        self.protocolAContacts = current
        self.packets.removeAll()
        return self.emit(contacts, at: time)
    }

    private func contact(_ id: Int, _ phase: TouchContact.Phase, _ slot: Slot) -> TouchContact {
        TouchContact {
            $0.id = id
            $0.phase = phase
            $0.x = self.mapper.pointX(slot.x)
            $0.y = self.mapper.pointY(slot.y)
            $0.pressure = self.mapper.pressure(slot.pressure)
            $0.major = slot.major > 0 ? self.mapper.points(major: slot.major) : nil
            $0.tool = self.reportsTool ? (slot.tool == EventCode.toolPen ? .pen : .finger) : nil
        }
    }

    /// Cancels every published contact; with `keepSuppressed` their tracking ids stay ignored.
    private mutating func cancelAll(at time: SourceInstant, keepSuppressed: Bool) -> TouchFrame? {
        var contacts: [TouchContact] = []
        self.pendingEnds.removeAll()
        for index in self.slots.indices where self.slots[index].live != nil {
            var cancelled = self.slots[index].lastContact
            cancelled.phase = .cancelled
            contacts.append(cancelled)
            self.slots[index].live = nil
            if keepSuppressed { self.slots[index].suppressed = self.slots[index].trackingID }
        }
        if self.single.live != nil {
            var cancelled = self.single.lastContact
            cancelled.phase = .cancelled
            contacts.append(cancelled)
            self.single.live = nil
            self.singleSuppressed = keepSuppressed && self.singleDown
        }
        for var contact in self.protocolAContacts {
            contact.phase = .cancelled
            contacts.append(contact)
        }
        self.protocolAContacts.removeAll()
        self.packets.removeAll()
        self.packet = Slot()
        return self.emit(contacts, at: time)
    }

    private mutating func emit(_ contacts: [TouchContact], at time: SourceInstant) -> TouchFrame? {
        guard !contacts.isEmpty else { return nil }
        self.frameNumber += 1
        return TouchFrame {
            $0.device = self.device
            $0.frame = self.frameNumber
            $0.tNs = time.nanoseconds
            $0.contacts = contacts
        }
    }
}
