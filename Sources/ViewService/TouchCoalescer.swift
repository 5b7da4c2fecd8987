import BusSchema

/// Turns one page's pointer contacts into touch frames, at most one frame per flush.
///
/// A page may send pointer events far faster than any recognizer needs (100 000 a second from a
/// hostile or broken page): moves of a contact that arrive between two flushes merge into one
/// (the newest position wins), so the service publishes at most one frame per contact per flush
/// interval. Phase changes (began, ended, cancelled) are never merged away: a change that cannot
/// merge starts a new pending frame, and a page that piles up more than ``maximumPendingFrames``
/// of them is misbehaving (the caller closes it). Every frame lists every open contact, the ones
/// that did not change as `stationary`, as `touch.frame` asks. Pure: time comes with the events.
public struct TouchCoalescer: Sendable {
    /// Open contacts at most (a hand has ten fingers).
    public static let maximumContacts = 10
    /// Frames waiting for a flush at most.
    public static let maximumPendingFrames = 32

    /// Why a contact was refused.
    public struct Refusal: Error, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// The contacts already sent on, by id, at their last position.
    private var open: [Int: TouchContact] = [:]
    /// Updates not sent yet, oldest first, each with the newest event time in it.
    private var pending: [(updates: [Int: TouchContact], tNs: Int64)] = []
    /// Contacts that began in a pending frame or earlier and have not ended.
    private var live: Set<Int> = []

    public init() {}

    /// Whether no contact is open or pending.
    public var isIdle: Bool { self.live.isEmpty && self.open.isEmpty && self.pending.isEmpty }

    /// Whether a frame is waiting for ``flush()``.
    public var hasPending: Bool { !self.pending.isEmpty }

    /// Takes one contact update from the page at `tNs` (the page's clock, not decreasing).
    ///
    /// A move, end or cancel of a contact that is not open is dropped (it may follow a cancel).
    /// - Throws: ``Refusal`` for a second `began` of an open contact, an eleventh contact, or
    ///   more than ``maximumPendingFrames`` frames waiting.
    public mutating func receive(_ contact: TouchContact, tNs: Int64) throws {
        switch contact.phase {
        case .began:
            guard !self.live.contains(contact.id) else {
                throw Refusal(description: "contact \(contact.id) began twice")
            }
            guard self.live.count < Self.maximumContacts else {
                throw Refusal(description: "more than \(Self.maximumContacts) contacts")
            }
            self.live.insert(contact.id)
        case .moved, .stationary, .ended, .cancelled:
            guard self.live.contains(contact.id) else { return }
            if contact.phase == .ended || contact.phase == .cancelled { self.live.remove(contact.id) }
        }
        var contact = contact
        if contact.phase == .stationary { contact.phase = .moved }
        if let last = self.pending.indices.last, Self.merges(contact, into: self.pending[last].updates[contact.id]) {
            self.pending[last].updates[contact.id] = contact
            self.pending[last].tNs = max(self.pending[last].tNs, tNs)
            return
        }
        guard self.pending.count < Self.maximumPendingFrames else {
            throw Refusal(description: "more than \(Self.maximumPendingFrames) touch changes within one flush")
        }
        self.pending.append(([contact.id: contact], tNs))
    }

    /// Cancels every contact (pointercancel, a lost connection, a hidden page): what was not sent
    /// is dropped, and the open contacts end in one `cancelled` frame.
    public mutating func cancelAll(tNs: Int64) {
        self.pending.removeAll()
        self.live.removeAll()
        guard !self.open.isEmpty else { return }
        var updates: [Int: TouchContact] = [:]
        for (id, contact) in self.open {
            var cancelled = contact
            cancelled.phase = .cancelled
            updates[id] = cancelled
        }
        self.pending.append((updates, tNs))
    }

    /// The next frame's contacts (sorted by id) and time, or nil if nothing changed.
    public mutating func flush() -> (contacts: [TouchContact], tNs: Int64)? {
        guard !self.pending.isEmpty else { return nil }
        let (updates, tNs) = self.pending.removeFirst()
        var contacts: [TouchContact] = []
        for (id, contact) in self.open where updates[id] == nil {
            var stationary = contact
            stationary.phase = .stationary
            contacts.append(stationary)
        }
        for (id, contact) in updates {
            contacts.append(contact)
            if contact.phase == .ended || contact.phase == .cancelled {
                self.open[id] = nil
            } else {
                self.open[id] = contact
            }
        }
        return (contacts.sorted { $0.id < $1.id }, tNs)
    }

    /// Whether `contact` can replace the pending update of its id in the newest pending frame:
    /// always when there is none, else only over a move (a newer move, an end or a cancel), so a
    /// `began`, an end or a cancel is always sent.
    private static func merges(_ contact: TouchContact, into pending: TouchContact?) -> Bool {
        guard let pending else { return true }
        return pending.phase == .moved && contact.phase != .began
    }
}
