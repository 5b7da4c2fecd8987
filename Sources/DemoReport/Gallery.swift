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

    /// The moments looked for, per idiom: (idiom, component kind, [(moment, test on a state)]).
    static let spec: [(name: String, kind: String, moments: [(String, @Sendable (Value) -> Bool)])] = [
        (
            "Pull to refresh", "pullToRefresh",
            [
                ("pulled", { $0["phase"]?.stringValue == "pullingDown" && ($0["offset"]?.doubleValue ?? 0) > 20 }),
                ("over the threshold", { $0["phase"]?.stringValue == "overThreshold" }),
                ("refreshing", { $0["phase"]?.stringValue == "refreshing" }),
            ]
        ),
        (
            "Number pad", "numberPad",
            [
                ("popup", { $0["popup"]?.mapValue != nil }),
                ("typed", { !($0["sequential_string"]?.stringValue ?? "").isEmpty }),
            ]
        ),
        (
            "Pager", "pager",
            [
                ("pulled: 引き下げて更新", { $0["label"]?.stringValue == "引き下げて更新" }),
                ("past 120 pt: はなして更新", { $0["label"]?.stringValue == "はなして更新" }),
                ("loading", { $0["loading"]?.boolValue == true }),
            ]
        ),
        (
            "Slide cells", "slideTable",
            [
                ("selected", { $0["selected_row"]?.intValue != nil }),
                ("open", { $0["open_row"]?.intValue != nil && $0["animating_row"]?.intValue == nil }),
            ]
        ),
        (
            "Edge drawer", "drawer",
            [
                ("closed", { $0["open"]?.boolValue == false && ($0["progress"]?.doubleValue ?? 0) == 0 }),
                ("open", { $0["open"]?.boolValue == true }),
            ]
        ),
        (
            "Memo board", "memoBoard",
            [
                ("editor open", { $0["editing"]?.stringValue != nil }),
                ("search", { $0["search"]?.mapValue != nil }),
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
        private var boards: [String: ValueMap] = [:]

        /// A `memoBoard.delta` payload: between full states a board sends only what changed,
        /// its editor and search included (an absent `search` is unchanged).
        mutating func boardDelta(_ payload: Value, atNs: UInt64) {
            guard let instance = payload["instance"]?.stringValue else { return }
            var board = self.boards[instance] ?? [:]
            board["editing"] = payload["editing"] ?? .null
            if let search = payload["search"] { board["search"] = search }
            self.state(kind: "memoBoard", instance: instance, .map(board), atNs: atNs)
        }

        /// A `state.<kind>` payload of an instance, received at `atNs`.
        mutating func state(kind: String, instance: String, _ payload: Value, atNs: UInt64) {
            if kind == "memoBoard", let fields = payload.mapValue { self.boards[instance] = fields }
            for (i, idiom) in Gallery.spec.enumerated() where idiom.kind == kind {
                for (j, moment) in idiom.moments.enumerated() {
                    let key = "\(j)|\(instance)"
                    let holds = moment.1(payload)
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
