import BusSchema
import Foundation

/// A FloatyMemo+-style memo board. Drag moves a memo, pinch resizes it, two-finger rotation
/// rotates it, a tap brings it to the front, a double tap opens the editor on it, long press
/// selects. The scene makes the tap require the double tap to fail (UIKit's
/// `require(toFail:)`), so the two never both fire for one double tap. Every change becomes a memo command
/// with a unique `cmd_id`, shown at once (marked pending) and resent with backoff until the store
/// acknowledges it. The board follows `memo/changed/` in seq order and asks for a snapshot when
/// it sees a gap or a new store epoch.
public struct MemoBoardMachine: Sendable {
    public struct Config: Sendable, Hashable {
        /// Client name in commands; acks arrive on `memo/ack/<client>/`.
        public var client: String
        /// Background image until the store's setting arrives.
        public var background: String? = nil
        public var memoWidth = 160.0
        public var memoHeight = 120.0
        public var retryInitial = Duration.milliseconds(100)
        /// At least `retryInitial`.
        public var retryMax = Duration.seconds(2)
        /// The board's origin in scene points.
        public var originX = 0.0
        public var originY = 0.0
        /// The board's width, which `arrange` fills row by row (nil: the store's default width).
        public var width: Double? = nil
        /// How often a full state goes out between deltas (board time, ms), for subscribers
        /// that missed a delta or joined without asking.
        public var fullStateEvery = Duration.seconds(5)
        /// How long the board stays quiet after a delta before it restates itself in full (board
        /// time): for the proxy's last-value cache, well within the 100 ms a late joiner waits.
        public var settleAfter = Duration.milliseconds(50)
    }

    public enum Event: Sendable, Equatable {
        /// The host started: ask the store for a snapshot. `session` tells this run of the board
        /// from every earlier one (the live host passes its random bus epoch, a replay a fixed
        /// value): it goes into every `cmd_id` and new memo id, so ids never repeat across restarts.
        case started(at: SourceInstant, session: String)
        case tapRecognized(x: Double, y: Double, at: SourceInstant)
        case doubleTapRecognized(x: Double, y: Double, at: SourceInstant)
        case longPressBegan(x: Double, y: Double, at: SourceInstant)
        case panBegan(x: Double, y: Double, at: SourceInstant)
        case panChanged(translation: GestureEvent.Vector, at: SourceInstant)
        case panEnded(at: SourceInstant)
        case pinchBegan(x: Double, y: Double, at: SourceInstant)
        case pinchChanged(scale: Double, at: SourceInstant)
        case rotationBegan(x: Double, y: Double, at: SourceInstant)
        case rotationChanged(rotation: Double, at: SourceInstant)
        /// A pinch or rotation ended (the other may still run).
        case transformEnded(at: SourceInstant)
        case gestureCancelled(at: SourceInstant)
        case createRequested(text: String, x: Double, y: Double, color: MemoBoardState.Color?, at: SourceInstant)
        case editRequested(memoID: String, text: String, at: SourceInstant)
        case editorClosed(at: SourceInstant)
        case trashRequested(memoID: String, at: SourceInstant)
        case restoreRequested(memoID: String, at: SourceInstant)
        case emptyTrashRequested(at: SourceInstant)
        case arrangeRequested(MemoArrangeOrder?, at: SourceInstant)
        /// An empty query clears the search.
        case searchRequested(query: String, at: SourceInstant)
        case backgroundRequested(image: String?, at: SourceInstant)
        case ackReceived(MemoAck, at: SourceInstant)
        /// A change from the store; `epoch` is the store's envelope epoch.
        case changeReceived(MemoChanged, epoch: UInt64, at: SourceInstant)
        case snapshotChunkReceived(MemoSnapshot, epoch: UInt64, at: SourceInstant)
        case timeElapsed(SourceInstant)
        case appWillResignActive(at: SourceInstant)
        case appDidBecomeActive(at: SourceInstant)
    }

    private enum State: Sendable {
        case idle
        case dragging(memoID: String, start: MemoBoardState.Memo)
        case transforming(memoID: String, start: MemoBoardState.Memo, scaling: Bool, rotating: Bool)
    }

    public let instance: String
    public let config: Config
    private var state: State = .idle
    /// Memos on the board and in the trash, by id.
    var records = BoardRecords()
    /// What was last published, for the next ``MemoBoardDelta``.
    var published = PublishedBoard()
    var settings: MemoSettings
    var selected: String?
    var editing: String?
    var search: MemoBoardState.Search?
    var sync = MemoSync()

    public init(instance: String, config: Config) {
        var config = config
        config.retryMax = max(config.retryMax, config.retryInitial)
        self.instance = instance
        self.config = config
        self.settings = MemoSettings {
            $0.background = config.background
        }
    }

    public mutating func handle(_ event: Event) -> [ComponentEffect] {
        switch (self.state, event) {
        case (_, .started(let now, let session)):
            self.sync.session = session
            return self.requestSnapshot(now) + [self.publish(now)]
        case (.idle, .tapRecognized(let x, let y, let now)):
            guard let id = self.memo(at: x, y) else { return [] }
            return self.send(.front, memoID: id, at: now) + [self.publish(now)]
        case (.idle, .doubleTapRecognized(let x, let y, let now)):
            // A double tap off every memo closes the editor, as a tap outside a text view ends editing.
            self.editing = self.memo(at: x, y)
            if let id = self.editing { return self.send(.front, memoID: id, at: now) + [self.publish(now)] }
            return [self.publish(now)]
        case (.idle, .longPressBegan(let x, let y, let now)):
            self.selected = self.memo(at: x, y)
            return [self.publish(now)]
        case (.idle, .panBegan(let x, let y, let now)):
            guard let id = self.memo(at: x, y), let memo = self.records[id]?.memo else { return [] }
            self.state = .dragging(memoID: id, start: memo)
            return [self.publish(now)]
        case (.dragging(let id, let start), .panChanged(let translation, let now)):
            self.records[id]?.memo.x = start.x + translation.x
            self.records[id]?.memo.y = start.y + translation.y
            return [self.publish(now)]
        case (.dragging(let id, _), .panEnded(let now)):
            self.state = .idle
            guard let memo = self.records[id]?.memo else { return [self.publish(now)] }
            let sent = self.send(.move, memoID: id, at: now) {
                $0.x = memo.x
                $0.y = memo.y
            }
            return sent + [self.publish(now)]
        case (.idle, .pinchBegan(let x, let y, let now)), (.idle, .rotationBegan(let x, let y, let now)):
            guard let id = self.memo(at: x, y), let memo = self.records[id]?.memo else { return [] }
            let scaling: Bool
            if case .pinchBegan = event { scaling = true } else { scaling = false }
            self.state = .transforming(memoID: id, start: memo, scaling: scaling, rotating: !scaling)
            return [self.publish(now)]
        case (.transforming(let id, let start, _, let rotating), .pinchBegan(_, _, let now)):
            self.state = .transforming(memoID: id, start: start, scaling: true, rotating: rotating)
            return [self.publish(now)]
        case (.transforming(let id, let start, let scaling, _), .rotationBegan(_, _, let now)):
            self.state = .transforming(memoID: id, start: start, scaling: scaling, rotating: true)
            return [self.publish(now)]
        case (.transforming(let id, let start, true, _), .pinchChanged(let scale, let now)):
            self.records[id]?.memo.scale = min(max(start.scale * scale, 0.25), 8)
            return [self.publish(now)]
        case (.transforming(let id, let start, _, true), .rotationChanged(let rotation, let now)):
            self.records[id]?.memo.rotation = start.rotation + rotation
            return [self.publish(now)]
        case (.transforming(let id, let start, let scaling, let rotating), .transformEnded(let now)):
            if scaling && rotating {
                // One of the two ended; the other goes on.
                self.state = .transforming(memoID: id, start: start, scaling: false, rotating: true)
                return []
            }
            self.state = .idle
            guard let memo = self.records[id]?.memo else { return [self.publish(now)] }
            let sent = self.send(.transform, memoID: id, at: now) {
                $0.scale = memo.scale
                $0.rotation = memo.rotation
            }
            return sent + [self.publish(now)]
        case (.dragging(let id, let start), .gestureCancelled(let now)),
            (.transforming(let id, let start, _, _), .gestureCancelled(let now)):
            self.records[id]?.memo = start
            self.state = .idle
            return [self.publish(now)]
        case (.dragging(let id, let start), .appWillResignActive(let now)),
            (.transforming(let id, let start, _, _), .appWillResignActive(let now)):
            self.records[id]?.memo = start
            self.state = .idle
            return self.flush(now) + [self.publish(now)]
        case (.idle, .appWillResignActive(let now)):
            return self.flush(now)
        case (_, .appDidBecomeActive(let now)):
            return self.resume(now)
        case (_, .createRequested(let text, let x, let y, let color, let now)):
            return self.create(text: text, x: x, y: y, color: color ?? .yellow, now)
        case (_, .editRequested(let id, let text, let now)):
            guard let record = self.records[id] else { return [] }
            self.records[id]?.memo.text = text
            let baseVersion = Int64(record.memo.version ?? 1)
            let sent = self.send(.edit, memoID: id, at: now) {
                $0.text = text
                $0.baseVersion = baseVersion
            }
            return sent + [self.publish(now)]
        case (_, .editorClosed(let now)):
            self.editing = nil
            return [self.publish(now)]
        case (_, .trashRequested(let id, let now)):
            guard self.records[id]?.trashedAt == nil else { return [] }
            self.records[id]?.trashedAt = Int64(now.milliseconds)
            if self.selected == id { self.selected = nil }
            if self.editing == id { self.editing = nil }
            return self.send(.trash, memoID: id, at: now) + [self.publish(now)]
        case (_, .restoreRequested(let id, let now)):
            guard self.records[id]?.trashedAt != nil else { return [] }
            self.records[id]?.trashedAt = nil
            return self.send(.restore, memoID: id, at: now) + [self.publish(now)]
        case (_, .emptyTrashRequested(let now)):
            self.records.removeAll { $0.trashedAt != nil }
            return self.send(.emptyTrash, at: now) + [self.publish(now)]
        case (_, .arrangeRequested(let order, let now)):
            if let order { self.settings.arrangeOrder = order }
            for id in self.records.keys { self.records[id]?.memo.minimized = true }
            let order = self.settings.arrangeOrder
            let width = self.config.width
            return self.send(.arrange, at: now) {
                $0.order = order
                $0.width = width
            } + [self.publish(now)]
        case (_, .searchRequested(let query, let now)):
            guard !query.isEmpty else {
                self.search = nil
                return [self.publish(now)]
            }
            // One popover at a time (FloatyMemo+ was rejected for two open at once): the search
            // bar's field closes the editor.
            self.editing = nil
            self.search = MemoBoardState.Search(query: query, matches: self.matches(of: query))
            let sent = self.send(.search, at: now) {
                $0.query = query
                $0.includeTrash = true
            }
            return sent + [self.publish(now)]
        case (_, .backgroundRequested(let image, let now)):
            self.settings.background = image
            return self.send(.background, at: now) { $0.image = image } + [self.publish(now)]
        case (_, .ackReceived(let ack, let now)):
            return self.acknowledge(ack, now)
        case (_, .changeReceived(let change, let epoch, let now)):
            return self.receive(change, epoch: epoch, now)
        case (_, .snapshotChunkReceived(let chunk, let epoch, let now)):
            return self.receive(chunk, epoch: epoch, now)
        case (_, .timeElapsed(let now)):
            return self.resendDue(now) + self.settle(now)
        default:
            return []
        }
    }

    private mutating func create(
        text: String, x: Double, y: Double, color: MemoBoardState.Color, _ now: SourceInstant
    ) -> [ComponentEffect] {
        let id = "\(self.config.client)-\(self.sync.session)-\(self.sync.nextCommand)"
        let z = (self.records.values.map(\.memo.z).max() ?? 0) + 1
        let (width, height) = (self.config.memoWidth, self.config.memoHeight)
        self.records[id] = BoardMemo(
            memo: MemoBoardState.Memo(
                id: id, x: x, y: y, width: width, height: height, z: z, color: color, text: text))
        let sent = self.send(.create, memoID: id, at: now) {
            $0.text = text
            $0.x = x
            $0.y = y
            $0.width = width
            $0.height = height
            $0.color = color.rawValue
        }
        return sent + [self.publish(now)]
    }

    /// The topmost memo on the board under scene point (`x`, `y`), honouring scale and rotation.
    private func memo(at x: Double, _ y: Double) -> String? {
        let px = x - self.config.originX
        let py = y - self.config.originY
        let onBoard = self.records.values.filter { $0.trashedAt == nil }.map(\.memo)
        for memo in onBoard.sorted(by: { ($0.z, $0.id) > ($1.z, $1.id) }) {
            let cx = memo.x + memo.width / 2
            let cy = memo.y + memo.height / 2
            let dx = px - cx
            let dy = py - cy
            let localX = dx * cos(-memo.rotation) - dy * sin(-memo.rotation)
            let localY = dx * sin(-memo.rotation) + dy * cos(-memo.rotation)
            if abs(localX) <= memo.width * memo.scale / 2, abs(localY) <= memo.height * memo.scale / 2 {
                return memo.id
            }
        }
        return nil
    }

    /// Matches of `query` in every memo's text, board and trash, in Unicode scalar offsets.
    func matches(of query: String) -> [MemoBoardState.Match] {
        let needle = Array(query.lowercased().unicodeScalars)
        guard !needle.isEmpty else { return [] }
        var matches: [MemoBoardState.Match] = []
        for record in self.records.values.sorted(by: { $0.memo.id < $1.memo.id }) {
            let text = Array(record.memo.text.lowercased().unicodeScalars)
            var ranges: [Range<Int>] = []
            var start = 0
            while start + needle.count <= text.count {
                if Array(text[start..<start + needle.count]) == needle {
                    ranges.append(start..<start + needle.count)
                    start += needle.count
                } else {
                    start += 1
                }
            }
            if !ranges.isEmpty {
                matches.append(
                    MemoBoardState.Match(memoID: record.memo.id, trashed: record.trashedAt != nil, ranges: ranges))
            }
        }
        return matches
    }

    /// The state as published.
    public func snapshot(at now: SourceInstant) -> MemoBoardState {
        let pendingMemos = Set(self.sync.pending.compactMap(\.request.memoId))
        let shown: (BoardMemo) -> MemoBoardState.Memo = { record in
            var memo = record.memo
            memo.pending = pendingMemos.contains(memo.id)
            return memo
        }
        let order: (MemoBoardState.Memo, MemoBoardState.Memo) -> Bool = { ($0.z, $0.id) < ($1.z, $1.id) }
        return MemoBoardState {
            $0.instance = self.instance
            $0.tMs = now.milliseconds
            $0.memos = self.records.values.filter { $0.trashedAt == nil }.map(shown).sorted(by: order)
            $0.selected = self.selected
            $0.arrangeOrder = self.settings.arrangeOrder
            $0.background = self.settings.background
            $0.editing = .some(self.editing)
            $0.trash = self.records.values.filter { $0.trashedAt != nil }.map(shown).sorted(by: order)
            $0.search = .some(self.search)
            $0.storeSeq = Int(clamping: self.sync.storeSeq)
            $0.pendingCommands = self.sync.pending.count
            $0.syncing = self.sync.snapshotRequest != nil
            $0.revision = self.published.revision
        }
    }

}

extension MemoBoardMachine {
    /// A memo from the store as the board should show it: while the user's finger holds it
    /// (dragging, pinching, rotating), its geometry stays where the gesture put it; the rest
    /// (text, colour, version) follows the store. The gesture's own command settles the
    /// geometry when it ends, so an echo of an earlier move never yanks a memo from under the finger.
    func keepingGestureGeometry(_ incoming: BoardMemo) -> BoardMemo {
        let held: String
        switch self.state {
        case .idle: return incoming
        case .dragging(let id, _), .transforming(let id, _, _, _): held = id
        }
        guard incoming.memo.id == held, let shown = self.records[held]?.memo else { return incoming }
        var kept = incoming
        kept.memo.x = shown.x
        kept.memo.y = shown.y
        kept.memo.width = shown.width
        kept.memo.height = shown.height
        kept.memo.scale = shown.scale
        kept.memo.rotation = shown.rotation
        return kept
    }
}
