import BusSchema

/// Lanes of the timeline: one per component instance (its phases as segments) and one per
/// gesture kind (discrete gestures as marks, continuous ones as spans from began to end).
public struct Timeline: Sendable, Equatable {
    /// A stretch of time in one phase or one continuous gesture; times in ns since the session start.
    public struct Span: Sendable, Equatable {
        public var startNs: UInt64
        public var endNs: UInt64
        public var label: String
        /// Tooltip text.
        public var detail: String
    }

    /// One instant: a discrete gesture, or the end of one whose start was not recorded.
    public struct Mark: Sendable, Equatable {
        public var atNs: UInt64
        public var detail: String
        /// A recognized gesture (drawn bold) rather than a failure or an unmatched end (drawn faint).
        public var recognized: Bool
    }

    public struct Lane: Sendable, Equatable {
        public enum Kind: Sendable, Equatable {
            case component
            case gesture
        }

        public var name: String
        public var kind: Kind
        public var spans: [Span] = []
        public var marks: [Mark] = []
    }

    public var durationNs: UInt64
    public var lanes: [Lane]

    /// Collects lanes in recording order; ``finish(endNs:)`` closes what is still open.
    struct Builder {
        let startNs: UInt64
        private var lanes: [Lane] = []
        private var laneIndex: [String: Int] = [:]
        /// Open phase per component: lane index and where the phase began.
        private var openPhase: [String: (lane: Int, span: Span)] = [:]
        /// Continuous gestures in progress, by device/view/name.
        private var openGesture: [String: (lane: Int, span: Span)] = [:]

        init(startNs: UInt64) {
            self.startNs = startNs
        }

        private mutating func lane(_ name: String, _ kind: Lane.Kind) -> Int {
            let key = "\(kind)|\(name)"
            if let index = self.laneIndex[key] { return index }
            self.lanes.append(Lane(name: name, kind: kind))
            self.laneIndex[key] = self.lanes.count - 1
            return self.lanes.count - 1
        }

        private func since(_ ns: UInt64) -> UInt64 { ns >= self.startNs ? ns - self.startNs : 0 }

        /// A component reached a new phase at `atNs`.
        mutating func component(_ component: String, phase: String, atNs: UInt64) {
            let lane = self.lane(component, .component)
            let now = self.since(atNs)
            if let (openLane, span) = self.openPhase[component] { self.close(span, lane: openLane, atNs: now) }
            let detail = "\(component): \(phase) from \(Self.seconds(now))"
            self.openPhase[component] = (lane, Span(startNs: now, endNs: now, label: phase, detail: detail))
        }

        /// A gesture event at `atNs`.
        mutating func gesture(kind: String, state: String, payload: Value, atNs: UInt64) {
            let lane = self.lane(kind, .gesture)
            let now = self.since(atNs)
            let view = payload["view"]?.stringValue ?? "?"
            let name = payload["name"]?.stringValue ?? kind
            let key = "\(payload["device"]?.stringValue ?? "?")|\(view)|\(name)"
            let place = "(\(Self.number(payload["x"])), \(Self.number(payload["y"])))"
            switch state {
            case "recognized":
                self.lanes[lane].marks.append(
                    Mark(
                        atNs: now, detail: "\(kind) on \(view) at \(place), \(Self.seconds(now))",
                        recognized: true))
            case "began":
                let detail = "\(kind) on \(view) from \(place), \(Self.seconds(now))"
                self.openGesture[key] = (lane, Span(startNs: now, endNs: now, label: kind, detail: detail))
            case "changed" where self.openGesture[key] == nil:
                // Began before the recording started: the span starts at the first change seen.
                let detail = "\(kind) on \(view) (began before the recording) at \(place), \(Self.seconds(now))"
                self.openGesture[key] = (lane, Span(startNs: now, endNs: now, label: kind, detail: detail))
            case "ended", "cancelled", "failed":
                guard let (openLane, span) = self.openGesture.removeValue(forKey: key) else {
                    let detail = "\(kind) on \(view) \(state) at \(place), \(Self.seconds(now))"
                    self.lanes[lane].marks.append(Mark(atNs: now, detail: detail, recognized: false))
                    return
                }
                var closed = span
                closed.detail += " to \(place), \(state)"
                self.close(closed, lane: openLane, atNs: now)
            default:
                break
            }
        }

        private mutating func close(_ span: Span, lane: Int, atNs: UInt64) {
            var closed = span
            closed.endNs = max(atNs, span.startNs)
            closed.detail += " (\(Self.milliseconds(closed.endNs - closed.startNs)))"
            self.lanes[lane].spans.append(closed)
        }

        /// Closes open phases and gestures at the end of the session; components first, then gestures.
        func finish(endNs: UInt64) -> Timeline {
            var builder = self
            let end = self.since(endNs)
            for (lane, span) in self.openPhase.values { builder.close(span, lane: lane, atNs: end) }
            for (lane, span) in self.openGesture.values { builder.close(span, lane: lane, atNs: end) }
            let ordered =
                builder.lanes.filter { $0.kind == .component }.sorted { $0.name < $1.name }
                + builder.lanes.filter { $0.kind == .gesture }.sorted { $0.name < $1.name }
            return Timeline(
                durationNs: end,
                lanes: ordered.map { lane in
                    var sorted = lane
                    sorted.spans.sort { $0.startNs < $1.startNs }
                    return sorted
                })
        }

        static func seconds(_ ns: UInt64) -> String { Format.fixed(Double(ns) / 1e9, 3) + " s" }
        static func milliseconds(_ ns: UInt64) -> String { Format.fixed(Double(ns) / 1e6, 1) + " ms" }
        static func number(_ value: Value?) -> String { Format.fixed(value?.doubleValue ?? 0, 0) }
    }
}
