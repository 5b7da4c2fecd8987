import BusSchema

/// The report's gallery: each idiom's key moments side by side, each shown by a snapshot the
/// demo's own render worker wrote while the component's state was in that moment.
///
/// A moment is a test on a component's state (`state.<kind>` on `ui/`); its intervals run from
/// a state that passes to the next state of that instance that does not. A snapshot shows a
/// moment when its frame was started inside one of them (the `render/frame/` message's receive
/// time less the frame's render and encode time); the last one in the earliest such interval is shown.
public struct Gallery: Sendable, Equatable {
    /// One key moment and the snapshot that shows it, if the demo wrote one in time.
    public struct Moment: Sendable, Equatable {
        public var name: String
        /// The snapshot's file name in the frames directory.
        public var fileName: String?
        public var frameID: Int?
    }

    /// An idiom's moments, drawn by the scene view hosting `kind`.
    public struct Idiom: Sendable, Equatable {
        public var name: String
        public var kind: String
        public var moments: [Moment]
    }

    public var idioms: [Idiom]

    /// A moment of a `S` state: `test` on the typed state (false for a state of another kind).
    static func moment<S: ValueMessage>(
        _ name: String, _ test: @escaping @Sendable (S) -> Bool
    ) -> (String, @Sendable (ComponentState) -> Bool) {
        (name, { state in (state.message as? S).map(test) ?? false })
    }

    /// The moments looked for, per idiom: (idiom, component kind, [(moment, test on a state)]).
    static let spec: [(name: String, kind: String, moments: [(String, @Sendable (ComponentState) -> Bool)])] = [
        (
            "Pull to refresh", "pullToRefresh",
            [
                moment("pulled") { (state: PullToRefreshState) in state.phase == .pullingDown && state.offset > 20 },
                moment("over the threshold") { (state: PullToRefreshState) in state.phase == .overThreshold },
                moment("refreshing") { (state: PullToRefreshState) in state.phase == .refreshing },
            ]
        ),
        (
            "Number pad", "numberPad",
            [
                moment("popup") { (state: NumberPadState) in state.popup != nil },
                moment("typed") { (state: NumberPadState) in !state.sequentialString.isEmpty },
            ]
        ),
        (
            "Pager", "pager",
            [
                moment("pulled: 引き下げて更新") { (state: PagerState) in state.label == "引き下げて更新" },
                moment("past 120 pt: はなして更新") { (state: PagerState) in state.label == "はなして更新" },
                moment("loading") { (state: PagerState) in state.loading },
            ]
        ),
        (
            "Slide cells", "slideTable",
            [
                moment("selected") { (state: SlideTableState) in state.selectedRow != nil },
                moment("open") { (state: SlideTableState) in state.openRow != nil && (state.animatingRow ?? nil) == nil
                },
            ]
        ),
        (
            "Edge drawer", "drawer",
            [
                moment("closed") { (state: DrawerState) in !state.open && state.progress == 0 },
                moment("open") { (state: DrawerState) in state.open },
            ]
        ),
        (
            "Memo board", "memoBoard",
            [
                moment("editor open") { (state: MemoBoardState) in (state.editing ?? nil) != nil },
                moment("search") { (state: MemoBoardState) in (state.search ?? nil) != nil },
            ]
        ),
    ]

    /// Collects the moments' intervals while the recording is read, in time order.
    struct Builder {
        /// Per (idiom index, moment index): closed intervals and the open one's start.
        private var intervals: [[[(UInt64, UInt64)]]]
        private var open: [[String: UInt64]]
        private var snapshots: [(frameID: Int, fileName: String, drawnNs: UInt64)] = []

        init() {
            self.intervals = Gallery.spec.map { Array(repeating: [], count: $0.moments.count) }
            self.open = Gallery.spec.map { _ in [:] }
        }

        /// The last full memo board state per instance, with the fields deltas change written in.
        private var boards: [String: MemoBoardState] = [:]

        /// A `memoBoard.delta` payload: between full states a board sends only what changed,
        /// its editor and search included (an absent `search` is unchanged). One that does not
        /// decode changes nothing.
        mutating func boardDelta(_ payload: Value, atNs: UInt64) {
            guard let delta = try? MemoBoardDelta(payload: payload) else { return }
            var board =
                self.boards[delta.instance]
                ?? MemoBoardState {
                    $0.instance = delta.instance
                    $0.tMs = delta.tMs
                    $0.memos = []
                    $0.selected = nil
                    $0.arrangeOrder = .created
                    $0.background = nil
                }
            board.editing = .some(delta.editing)
            if let search = delta.search { board.search = .some(search) }
            self.moments(kind: "memoBoard", instance: delta.instance, .memoBoard(board), atNs: atNs)
        }

        /// A `state.<kind>` payload of an instance, received at `atNs`, decoded into its kind's
        /// type: one that does not decode is in no moment.
        mutating func state(kind: String, instance: String, _ payload: Value, atNs: UInt64) {
            let state = Scene.Component.Kind(rawValue: kind).flatMap { try? ComponentState(kind: $0, payload: payload) }
            self.moments(kind: kind, instance: instance, state, atNs: atNs)
        }

        /// Opens and closes the moments' intervals of `instance` at its new state.
        private mutating func moments(kind: String, instance: String, _ state: ComponentState?, atNs: UInt64) {
            if case .memoBoard(let board) = state { self.boards[instance] = board }
            for (i, idiom) in Gallery.spec.enumerated() where idiom.kind == kind {
                for (j, moment) in idiom.moments.enumerated() {
                    let key = "\(j)|\(instance)"
                    let holds = state.map(moment.1) ?? false
                    if holds, self.open[i][key] == nil {
                        self.open[i][key] = atNs
                    } else if !holds, let start = self.open[i][key] {
                        self.intervals[i][j].append((start, atNs))
                        self.open[i][key] = nil
                    }
                }
            }
        }

        /// A `render.frame` payload naming a snapshot, received at `atNs`.
        mutating func frame(_ payload: Value, atNs: UInt64) {
            guard let png = payload["png"]?.stringValue, let id = payload["frame_id"]?.intValue else { return }
            let timings = payload["timings"]
            let ms = (timings?["render_ms"]?.doubleValue ?? 0) + (timings?["encode_ms"]?.doubleValue ?? 0)
            let took = ms.isFinite && ms > 0 ? UInt64(min(ms, 60_000) * 1e6) : 0
            let name = String(png.split(separator: "/").last ?? "")
            self.snapshots.append((Int(id), name, atNs >= took ? atNs - took : 0))
        }

        /// The gallery: per moment, the earliest of its intervals holding a snapshot on disk
        /// (`files`), and the last snapshot started in it: a state that starts an animation (a
        /// row sliding open, the editor growing) is drawn settled by then.
        func finish(endNs: UInt64, files: Set<String>) -> Gallery {
            let shots = self.snapshots.filter { files.contains($0.fileName) }
            let idioms = Gallery.spec.enumerated().map { i, idiom in
                let moments = idiom.moments.enumerated().map { j, moment in
                    let spans =
                        self.intervals[i][j]
                        + self.open[i].filter { $0.key.hasPrefix("\(j)|") }.map {
                            ($0.value, endNs)
                        }
                    let shot = spans.sorted { $0.0 < $1.0 }.lazy.compactMap { span in
                        shots.last { span.0 <= $0.drawnNs && $0.drawnNs < span.1 }
                    }.first
                    return Moment(name: moment.0, fileName: shot?.fileName, frameID: shot?.frameID)
                }
                return Idiom(name: idiom.name, kind: idiom.kind, moments: moments)
            }
            return Gallery(idioms: idioms)
        }
    }
}
