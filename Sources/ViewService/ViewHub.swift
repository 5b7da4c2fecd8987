import BusSchema
import Synchronization

/// What the web thread and the bus thread share: the frame's tiles (``TileChain``) and inspector batches going
/// out to pages, the pages' touches, commands and visibility coming in, and the counters.
///
/// Each side takes the lock only to copy or swap a few values; encoding, sending and publishing
/// happen outside it, so a slow page or a busy bus never holds the other side up. What comes in
/// from a page rings ``doorbell`` (when there is one), so the bus side drains it at once.
final class ViewHub: Sendable {
    /// Inspector batches kept for pages that fall behind (10 s at one batch per 100 ms).
    static let batchesKept = 100
    /// A page's touch frames go out this far apart at least: one per contact per 4 ms.
    static let minimumFrameSpacingNs: UInt64 = 4_000_000

    struct Outbound {
        var tiles = TileChain()
        /// Packets of the newest frame made so far, by the tile number they start after: the
        /// pages that stand at the same tile (all of them, when they keep up) share one.
        var packets: [UInt64: [UInt8]] = [:]
        /// Frame packets made (each page sent one counts in `frames_sent`).
        var packetsMade = 0
        var batches: [(sequence: UInt64, bytes: [UInt8])] = []
        var nextBatch: UInt64 = 1
    }

    struct Session {
        var coalescer = TouchCoalescer()
        var frameNumber: UInt64 = 0
        var lastTNs: Int64 = 0
        var closed = false
        /// When (the bus side's monotonic clock) its next touch frame may go out.
        var nextFrameNs: UInt64 = 0
    }

    struct Inbound {
        var sessions: [String: Session] = [:]
        var commands: [ComponentCommand] = []
        /// The pages that are open and shown: the app is active while there is one.
        var visible: Set<String> = []
        /// Whether the app was last said to be active (it starts active).
        var announcedActive = true
        /// A page opened since the last drain: it needs every component's full state, since a
        /// memo board's deltas apply only to the revision they follow.
        var pageOpened = false
        var counters: [String: Int] = [:]
    }

    /// What the bus side drains every flush.
    struct Drained {
        var frames: [TouchFrame] = []
        var commands: [ComponentCommand] = []
        /// The app became active (`true`) or resigned (`false`): every page was hidden or closed,
        /// or one was shown or opened after that.
        var active: Bool?
        /// A page opened since the last drain.
        var pageOpened = false
        /// When a touch frame held back by ``minimumFrameSpacingNs`` may go out: drain again then.
        var nextDueNs: UInt64?
    }

    let outbound = Mutex(Outbound())
    let inbound = Mutex(Inbound())
    let doorbell: Doorbell?

    init(doorbell: Doorbell? = nil) {
        self.doorbell = doorbell
    }

    /// Adds `amount` to a health counter.
    func count(_ name: String, _ amount: Int = 1) {
        self.inbound.withLock { $0.counters[name, default: 0] += amount }
    }

    var counters: [String: Int] { self.inbound.withLock { $0.counters } }

    /// Adds a frame's tiles for the pages; false when they do not follow the frame the pages
    /// are shown (a message was lost: the caller asks for a key frame).
    func publishTiles(_ message: RenderTiles) -> Bool {
        self.outbound.withLock { outbound in
            guard outbound.tiles.apply(message) else { return false }
            outbound.packets.removeAll()
            return true
        }
    }

    func publishBatch(_ bytes: [UInt8]) {
        self.outbound.withLock {
            $0.batches.append(($0.nextBatch, bytes))
            $0.nextBatch += 1
            if $0.batches.count > Self.batchesKept { $0.batches.removeFirst($0.batches.count - Self.batchesKept) }
        }
    }

    /// Where a page stands in what goes out to it.
    struct Cursor: Equatable {
        /// The newest tile the page has, and how many changes the chain had taken then.
        var tileNumber: UInt64 = 0
        var changes: UInt64 = 0
        /// The newest inspector batch the page has.
        var batch: UInt64
    }

    /// A message for a page.
    enum Outgoing: Equatable {
        /// The tiles the page lacks of the newest frame (binary), and how many frames that changed
        /// pixels it never shows (what they changed comes with this one).
        case frame(packet: [UInt8], skippedFrames: Int)
        /// The oldest inspector batch it lacks (text), and how many older ones were dropped.
        case batch(bytes: [UInt8], skipped: UInt64)
    }

    /// What goes to the page at `cursor` next, most urgent first: the newest frame (a frame
    /// someone is waiting to see never queues behind the inspector's messages), then the
    /// oldest inspector batch it lacks; advances the cursor past it. Packets are made outside
    /// the lock.
    func next(_ cursor: inout Cursor) -> Outgoing? {
        let since = cursor.tileNumber
        if let (due, changes, made) = self.outbound.withLock({ outbound in
            outbound.tiles.since(since).map { ($0, outbound.tiles.changes, outbound.packets[since]) }
        }) {
            // Changes in between but the last are skipped; what they changed that still shows
            // comes with this packet, which pages at the same tile share.
            let skipped = since > 0 && changes > cursor.changes ? Int(changes - cursor.changes - 1) : 0
            cursor.tileNumber = due.number
            cursor.changes = changes
            if let made { return .frame(packet: made, skippedFrames: skipped) }
            let packet = FramePacket.make(due.header, tiles: due.tiles, key: due.key, skipped: skipped)
            self.outbound.withLock { outbound in
                outbound.packetsMade += 1
                // Kept only while it is still the newest frame's.
                if outbound.tiles.number == due.number { outbound.packets[since] = packet }
            }
            return .frame(packet: packet, skippedFrames: skipped)
        }
        let batch = self.outbound.withLock { outbound in
            outbound.batches.first { $0.sequence > cursor.batch }
        }
        guard let batch else { return nil }
        defer { cursor.batch = batch.sequence }
        return .batch(bytes: batch.bytes, skipped: batch.sequence - cursor.batch - 1)
    }

    /// The newest batch sequence: a page that joins starts after it.
    var lastBatch: UInt64 { self.outbound.withLock { $0.nextBatch - 1 } }

    func sessionOpened(_ session: String) {
        self.inbound.withLock {
            $0.sessions[session] = Session()
            $0.pageOpened = true
            $0.visible.insert(session)
            $0.counters["pages_connected", default: 0] += 1
        }
        self.doorbell?.ring()
    }

    /// Cancels the session's touches; the bus side removes it once the cancel frame is out.
    func sessionClosed(_ session: String, tNs: Int64?) {
        self.inbound.withLock {
            guard var entry = $0.sessions[session] else { return }
            entry.coalescer.cancelAll(tNs: max(tNs ?? entry.lastTNs, entry.lastTNs))
            entry.closed = true
            $0.sessions[session] = entry
            $0.visible.remove(session)
        }
        self.doorbell?.ring()
    }

    /// Applies one message from a page.
    ///
    /// - Throws: ``PageMessageError`` (`touches`) if the coalescer refuses its contacts.
    func received(_ message: PageMessage, from session: String) throws {
        try self.inbound.withLock { inbound in
            guard var entry = inbound.sessions[session] else { return }
            defer { inbound.sessions[session] = entry }
            switch message {
            case .pointer(let tMs, let contacts):
                // The page's clock; never backwards, so a recognizer's velocities stay sane.
                let tNs = max(Int64(tMs * 1e6), entry.lastTNs)
                entry.lastTNs = tNs
                inbound.counters["pointer_contacts", default: 0] += contacts.count
                for contact in contacts {
                    do {
                        try entry.coalescer.receive(contact, tNs: tNs)
                    } catch let refusal as TouchCoalescer.Refusal {
                        throw PageMessageError(.touches, refusal.description)
                    }
                }
            case .visibility(let visible):
                if visible {
                    inbound.visible.insert(session)
                } else {
                    entry.coalescer.cancelAll(tNs: entry.lastTNs)
                    inbound.visible.remove(session)
                }
            case .command(let command):
                inbound.commands.append(command)
            }
        }
        self.doorbell?.ring()
    }

    /// Takes one touch frame per session (coalesced) whose last frame went out at least
    /// ``minimumFrameSpacingNs`` before `nowNs` (the bus side's monotonic clock), the commands and a
    /// change of the app's activity (one page hidden among several shown changes nothing). A touch
    /// goes out the moment it is drained, not at a flush tick; only one following another within
    /// the spacing waits (``Drained/nextDueNs``).
    func drain(nowNs: UInt64) -> Drained {
        self.inbound.withLock { inbound in
            var drained = Drained()
            swap(&drained.commands, &inbound.commands)
            drained.pageOpened = inbound.pageOpened
            inbound.pageOpened = false
            let active = !inbound.visible.isEmpty
            if active != inbound.announcedActive {
                inbound.announcedActive = active
                drained.active = active
            }
            for session in inbound.sessions.keys.sorted() {
                guard var entry = inbound.sessions[session] else { continue }
                if entry.coalescer.hasPending, nowNs < entry.nextFrameNs {
                    drained.nextDueNs = min(drained.nextDueNs ?? .max, entry.nextFrameNs)
                } else if let (contacts, tNs) = entry.coalescer.flush() {
                    entry.frameNumber += 1
                    entry.nextFrameNs = nowNs + Self.minimumFrameSpacingNs
                    drained.frames.append(
                        TouchFrame {
                            $0.device = "web-" + session
                            $0.frame = entry.frameNumber
                            $0.tNs = tNs
                            $0.contacts = contacts
                        })
                    if entry.coalescer.hasPending {
                        drained.nextDueNs = min(drained.nextDueNs ?? .max, entry.nextFrameNs)
                    }
                }
                inbound.sessions[session] = entry.closed && entry.coalescer.isIdle ? nil : entry
            }
            return drained
        }
    }
}
