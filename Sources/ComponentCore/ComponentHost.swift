import BusSchema
import GestureCore

/// What the host hands its owner to carry out.
public enum HostOutput: Sendable, Equatable {
    /// Publish on `ui/<kind>/<instance>/`.
    case state(ComponentState)
    /// Send on `memo/cmd/`.
    case memoCommand(MemoCommand)
    /// Publish on `ui/recognizer/<recognizer>/`: a component set a recognizer's directions or
    /// receive region (an edge drawer, its swipes, with each of its states).
    case recognizerConfig(RecognizerConfig)
}

/// The component host's routing core: the scene's components, each with its machine and its
/// timer, fed by gesture events, commands, lifecycle, network and memo store messages. Pure:
/// time comes from the inputs, on the input source's clock (a gesture's `t_ms`, or the instant the
/// owner passes for the others), and timers fire in time order before any later input, so the same
/// inputs at the same instants give the same states whoever feeds them (`component-host replay`
/// or the live service).
public struct ComponentHost: Sendable {
    /// What the host counted.
    public struct Counters: Sendable, Hashable {
        public var gestures = 0
        /// Gesture events no component listens to.
        public var unrouted = 0
        /// Commands for unknown instances, or that the component does not take.
        public var rejectedCommands = 0
        public var states = 0
    }

    public let scene: ComponentScene
    private var instances: [ComponentInstance]
    private var indexByInstance: [String: Int] = [:]
    private var timers: [Int: SourceInstant] = [:]
    /// Canvases that follow each zoom view's scale and content offset.
    private var followers: [Int: [Int]] = [:]
    /// The scrolling component under each pull-to-refresh header, by component index.
    private var scrollSources: [Int?]
    /// The components the last few kinds of gesture went to (nil: unrouted), found without
    /// hashing their view and recognizer names again.
    private var routes = RecentlyUsed<RouteKey, [Int]?>(capacity: 8)
    /// Memo boards by client name.
    private var boardsByClient: [String: Int] = [:]
    /// The swipe recognizers each drawer drives (those targeting it), by component index.
    private var drivenSwipes: [Int: [String]] = [:]
    public private(set) var counters = Counters()
    /// The host's clock: the latest input's source instant.
    public private(set) var now = SourceInstant(nanoseconds: 0)

    /// Builds every component's machine.
    public init(scene: ComponentScene) {
        self.scene = scene
        let instances = scene.components.map(ComponentInstance.init)
        self.instances = instances
        self.scrollSources = Array(repeating: nil, count: instances.count)
        for (index, component) in scene.components.enumerated() { self.indexByInstance[component.instance] = index }
        let componentByView = Dictionary(
            scene.components.enumerated().map { ($1.view.id, $0) }, uniquingKeysWith: { first, _ in first })
        for (index, component) in scene.components.enumerated() {
            switch component.config {
            case .canvas(let config):
                if let zoom = config.zoomView, let source = self.indexByInstance[zoom] {
                    self.followers[source, default: []].append(index)
                }
            case .pullToRefresh(let config):
                if let view = config.scrollView, let source = componentByView[view] {
                    self.scrollSources[index] = source
                }
            case .memoBoard:
                if case .memoBoard(let machine) = instances[index] {
                    self.boardsByClient[machine.config.client] = index
                }
            default: break
            }
        }
        let swipes = Set(scene.gesture.views.flatMap(\.recognizers).filter { $0.kind == .swipe }.map(\.name))
        for (name, targets) in scene.targets.sorted(by: { $0.key < $1.key }) where swipes.contains(name) {
            for index in targets.compactMap({ self.indexByInstance[$0] }) where scene.components[index].kind == .drawer
            {
                self.drivenSwipes[index, default: []].append(name)
            }
        }
    }

    /// Instance ids, in scene order.
    public var instanceIDs: [String] { self.scene.components.map(\.instance) }

    /// The component's state now.
    public func state(of instance: String) -> ComponentState? {
        self.indexByInstance[instance].map { self.instances[$0].snapshot(at: self.now) }
    }

    /// Publishes every component's initial state; memo boards ask the store for a snapshot.
    ///
    /// - Parameter session: what tells this run from every earlier one (the live host's random
    ///   bus epoch; a fixed value in a replay), part of every memo command id the boards make.
    public mutating func start(at instant: SourceInstant, session: String) -> [HostOutput] {
        self.now = instant
        var outputs: [HostOutput] = []
        for index in self.instances.indices {
            if case .memoBoard = self.instances[index] {
                self.apply(
                    index, self.instances[index].memoEvent(.started(at: instant, session: session)), into: &outputs)
            } else {
                self.emit(index, self.instances[index].snapshot(at: self.now), into: &outputs)
            }
        }
        return outputs
    }

    /// Every component's state now, for a subscriber that joined late or lost its place.
    public mutating func allStates(at instant: SourceInstant) -> [HostOutput] {
        var outputs = self.advance(to: instant)
        for index in self.instances.indices {
            self.emit(index, self.instances[index].snapshot(at: self.now), into: &outputs)
        }
        return outputs
    }

    /// Routes a gesture event to the components its recognizer targets.
    public mutating func handle(_ gesture: GestureEvent) -> [HostOutput] {
        var outputs: [HostOutput] = []
        self.handle(gesture, appendingTo: &outputs)
        return outputs
    }

    /// ``handle(_:)``, appending what goes out to `outputs`: the service empties and reuses one
    /// array for every event instead of allocating one per gesture.
    public mutating func handle(_ gesture: GestureEvent, appendingTo outputs: inout [HostOutput]) {
        // The decoders refuse numbers outside the schema's ranges; an event made any other way
        // (a replay line, a test) is clamped to them, so no machine sees a NaN or an infinity.
        // Checked first: copying every event to clamp it retained its strings for nothing.
        guard gesture.numbersWithinLimits else {
            var clamped = gesture
            clamped.clampNumbers()
            return self.route(clamped, appendingTo: &outputs)
        }
        self.route(gesture, appendingTo: &outputs)
    }

    /// Routes a gesture whose numbers are within the schema's ranges.
    private mutating func route(_ gesture: GestureEvent, appendingTo outputs: inout [HostOutput]) {
        let instant = SourceInstant(milliseconds: gesture.tMs)
        self.advance(to: instant, appendingTo: &outputs)
        self.counters.gestures += 1
        let key = RouteKey(view: gesture.view, recognizer: gesture.recognizer, name: gesture.name)
        let route: [Int]?
        if let known = self.routes.value(for: key) {
            route = known
        } else {
            route = self.targets(of: key)
            self.routes.remember(key, route)
        }
        guard let route else {
            self.counters.unrouted += 1
            return
        }
        for index in route {
            var atTop = true
            if let source = self.scrollSources[index], let offset = self.instances[source].contentOffsetY {
                atTop = offset <= 0
            }
            self.apply(index, self.instances[index].handle(gesture, at: instant, scrollAtTop: atTop), into: &outputs)
        }
    }

    /// What a gesture's route depends on: its recognizer's name, given or found from its view.
    private struct RouteKey: Equatable, Sendable {
        let view: String
        let recognizer: GestureEvent.Kind
        let name: String?
    }

    /// The indices of the components a gesture goes to, or nil if its recognizer targets none.
    private func targets(of key: RouteKey) -> [Int]? {
        let name = key.name ?? self.scene.recognizerNames[key.view]?[key.recognizer]
        guard let name, let targets = self.scene.targets[name], !targets.isEmpty else { return nil }
        return targets.compactMap { self.indexByInstance[$0] }
    }

    /// Carries out a component command at `instant`; `wallMs` is when it was sent (wall clock, ms
    /// since the Unix epoch), the update time of a `refresh_done` that names none.
    public mutating func handle(_ command: ComponentCommand, at instant: SourceInstant, wallMs: Double? = nil)
        -> [HostOutput]
    {
        var outputs = self.advance(to: instant)
        guard let index = self.indexByInstance[command.instance],
            let effects = self.instances[index].command(command, at: self.now, wallMs: wallMs)
        else {
            self.counters.rejectedCommands += 1
            return outputs
        }
        self.apply(index, effects, into: &outputs)
        return outputs
    }

    /// The app resigned active (`false`) or became active (`true`).
    public mutating func appActiveChanged(_ active: Bool, at instant: SourceInstant) -> [HostOutput] {
        self.everyComponent(at: instant) { $0.appActiveChanged(active, at: $1) }
    }

    /// The network's reachability changed.
    public mutating func connectivityChanged(_ connectivity: Connectivity, at instant: SourceInstant) -> [HostOutput] {
        self.everyComponent(at: instant) { $0.connectivityChanged(connectivity, at: $1) }
    }

    /// Moves the clock to `instant`, then gives every component `event` at that time.
    private mutating func everyComponent(
        at instant: SourceInstant, _ event: (inout ComponentInstance, SourceInstant) -> [ComponentEffect]
    ) -> [HostOutput] {
        var outputs = self.advance(to: instant)
        for index in self.instances.indices {
            let effects = event(&self.instances[index], self.now)
            self.apply(index, effects, into: &outputs)
        }
        return outputs
    }

    /// An ack from `memo/ack/<client>/`.
    public mutating func memoAckReceived(_ ack: MemoAck, client: String, at instant: SourceInstant) -> [HostOutput] {
        var outputs = self.advance(to: instant)
        guard let index = self.boardsByClient[client] else { return outputs }
        self.apply(
            index, self.instances[index].memoEvent(.ackReceived(ack, at: self.now)), into: &outputs)
        return outputs
    }

    /// A change from `memo/changed/`, for every board.
    public mutating func memoChangeReceived(_ change: MemoChanged, epoch: UInt64, at instant: SourceInstant)
        -> [HostOutput]
    {
        var outputs = self.advance(to: instant)
        for index in self.boardsByClient.values.sorted() {
            self.apply(
                index, self.instances[index].memoEvent(.changeReceived(change, epoch: epoch, at: self.now)),
                into: &outputs)
        }
        return outputs
    }

    /// A snapshot chunk from `memo/snapshot/<client>/`.
    public mutating func memoSnapshotReceived(
        _ chunk: MemoSnapshot, client: String, epoch: UInt64, at instant: SourceInstant
    ) -> [HostOutput] {
        var outputs = self.advance(to: instant)
        guard let index = self.boardsByClient[client] else { return outputs }
        self.apply(
            index, self.instances[index].memoEvent(.snapshotChunkReceived(chunk, epoch: epoch, at: self.now)),
            into: &outputs)
        return outputs
    }

    /// When the earliest timer is due.
    public var nextTimer: SourceInstant? { self.timers.values.min() }

    /// Fires every timer due at or before `instant`, in time order, then moves the clock to it.
    public mutating func advance(to instant: SourceInstant) -> [HostOutput] {
        var outputs: [HostOutput] = []
        self.advance(to: instant, appendingTo: &outputs)
        return outputs
    }

    /// The most time whose timers are replayed one by one when the clock jumps: a gesture stamped
    /// a year ahead must not make the host run a year of 60 Hz frames before it answers. A jump
    /// back by more than this is a source whose clock started again (a new script at zero).
    public static let maxCatchUp = Duration.seconds(60)

    /// ``maxCatchUp`` in nanoseconds, worked out once: a `Duration`'s nanoseconds take a 128-bit
    /// division, and the window is checked on every input.
    private static let maxCatchUpNanoseconds = maxCatchUp.nanoseconds

    /// The start of the catch-up window that ends at `instant`.
    private static func catchUpStart(before instant: SourceInstant) -> SourceInstant {
        let (start, overflow) = instant.nanoseconds.subtractingReportingOverflow(Self.maxCatchUpNanoseconds)
        return SourceInstant(nanoseconds: overflow ? .min : start)
    }

    /// The clock follows the input: forward, timers fire in time order on the way; back a little
    /// (a live tick that ran ahead of a late gesture), the timers keep their instants; back by
    /// more than ``maxCatchUp`` (a source's clock started again), each keeps its remaining time.
    private mutating func advance(to instant: SourceInstant, appendingTo outputs: inout [HostOutput]) {
        if instant < Self.catchUpStart(before: self.now) {
            let shift = instant - self.now
            for (index, due) in self.timers { self.timers[index] = due + shift }
        }
        // Timers overdue by more than the catch-up window fire at its start instead.
        let catchUp = Self.catchUpStart(before: instant)
        for (index, due) in self.timers where due < catchUp { self.timers[index] = catchUp }
        while let (index, due) = self.timers.min(by: { ($0.value, $0.key) < ($1.value, $1.key) }), due <= instant {
            self.timers[index] = nil
            self.apply(index, self.instances[index].timeElapsed(due), into: &outputs)
        }
        self.now = instant
    }

    /// Carries out component `index`'s effects, appending what goes out to `outputs` (appended in
    /// place: building an array per call and appending it cost more than the machines' work).
    private mutating func apply(
        _ index: Int, _ effects: consuming [ComponentEffect], into outputs: inout [HostOutput]
    ) {
        for position in effects.indices {
            // Moved out, not copied: a state is a large payload with strings and arrays inside,
            // and each copy of it (the loop's, the pattern's) retained and released them all.
            var effect = ComponentEffect.cancelTimer
            swap(&effect, &effects[position])
            switch consume effect {
            case .publishState(let state):
                var followed: ZoomViewState?
                if case .zoomView(let zoom) = state, self.followers[index] != nil { followed = zoom }
                self.emit(index, state, into: &outputs)
                if let zoom = followed, let canvases = self.followers[index] {
                    for canvas in canvases {
                        self.apply(canvas, self.instances[canvas].followedZoomChanged(zoom), into: &outputs)
                    }
                }
            case .scheduleTimer(let at): self.timers[index] = at
            case .cancelTimer: self.timers[index] = nil
            case .sendMemoCommand(let request): outputs.append(.memoCommand(request))
            }
        }
    }

    /// Appends component `index`'s state and, for a drawer, the configuration of the swipes it
    /// drives: the listened direction only, touches received on the panel only.
    private mutating func emit(_ index: Int, _ state: consuming ComponentState, into outputs: inout [HostOutput]) {
        self.counters.states += 1
        // The kind first: most states are not a drawer's, and hashing the index costs more.
        guard case .drawer(let drawer) = state, let names = self.drivenSwipes[index],
            case .drawer(let machine) = self.instances[index]
        else {
            outputs.append(.state(state))
            return
        }
        outputs.append(.state(state))
        let setup = machine.swipeSetup(for: drawer)
        let region = Scene.Frame(
            x: setup.region.x, y: setup.region.y, width: setup.region.width, height: setup.region.height)
        for name in names {
            outputs.append(
                .recognizerConfig(
                    RecognizerConfig {
                        $0.recognizer = name
                        $0.tMs = drawer.tMs
                        $0.instance = drawer.instance
                        $0.directions = setup.directions
                        $0.receiveRegion = region
                    }))
        }
    }
}
