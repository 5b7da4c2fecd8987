import BusSchema
import RenderCore

/// What the render worker draws: the scene, the latest full state of every component instance
/// (`ui/`), the memo store's contents (`memo/changed/`) and the animations between them.
///
/// Pure: messages and times (milliseconds on the worker's monotonic clock) come in, a layer
/// tree and animation completions come out. Each state message applied counts in
/// ``stateSeq``; a message that cannot be applied throws ``StateError`` and changes nothing.
public struct RenderScene: Sendable {
    /// A state message that cannot be applied.
    public struct StateError: Error, CustomStringConvertible {
        public var description: String
    }

    /// State messages (`ui/` states and scenes, `memo/changed/`) applied so far.
    public private(set) var stateSeq = 0
    private var scene: Scene?
    /// Component instance id → the view id that hosts it (animation layer names use view ids).
    private var views: [String: String] = [:]
    /// Component instance id → its kind in the scene: the type its states decode into.
    private var kinds: [String: Scene.Component.Kind] = [:]
    /// The latest full state of each instance, decoded once as it arrived.
    private var states: [String: ComponentState] = [:]
    /// The store's visible memos by id, as `memo/changed/` last described them (memos without
    /// a place are left out: they cannot be drawn).
    private var storeMemos: [String: MemoBoardState.Memo] = [:]
    private var memoStream: MemoStream
    /// Each memo board's copy, kept from its full states and deltas (boards that send a revision).
    private var boards: [String: MemoBoardReplica] = [:]
    /// Boards whose copy changed since it was last written into ``states``.
    private var staleBoards: Set<String> = []
    /// Boards out of step with their deltas, waiting for a full state.
    private var boardsAwaitingFullState: Set<String> = []
    private var animator = Animator()
    /// Views whose sublayers the animator tracks (they had an animated state once).
    private var animatedViews: Set<String> = []
    /// Memo board background images the owner could read, by path (see ``backgroundPaths``).
    public var backgroundImages: [String: ImageContent] = [:]

    /// - Parameters:
    ///   - scene: the scene, or nil to wait for one on `ui/scene/`.
    ///   - snapshotPrefix: the prefix of this worker's memo snapshot request ids (unique per process).
    public init(scene: Scene?, snapshotPrefix: String = "render") {
        self.memoStream = MemoStream(requestPrefix: snapshotPrefix)
        if let scene { self.load(scene) }
    }

    /// The memo snapshot request awaited, if any (the owner resends it when it is overdue).
    public var pendingMemoSnapshot: String? { self.memoStream.request }

    /// A new memo snapshot request id, to send as a `snapshot` command: at start, and again
    /// when the one awaited is overdue.
    public mutating func requestMemoSnapshot() -> String {
        self.memoStream.requestSnapshot()
    }

    /// Applies a `memo.changed` payload from the store's `epoch` in stream order.
    ///
    /// - Returns: a snapshot request id to send when the change shows a new store epoch or a gap.
    /// - Throws: ``StateError`` for a payload that cannot be applied.
    public mutating func receiveMemoChange(_ change: Value, epoch: UInt64) throws -> String? {
        guard let seq = change["seq"]?.uintValue else {
            throw StateError(description: "memo.changed needs a seq")
        }
        let (apply, request) = self.memoStream.changeArrived(seq: seq, epoch: epoch, change: change)
        if apply { try self.applyMemoChange(change) }
        return request
    }

    /// Applies one `memo.snapshot` chunk from the store's `epoch`; the last one replaces the
    /// store's memos.
    ///
    /// - Returns: a new snapshot request id to send when the chunks came out of order.
    /// - Throws: ``StateError`` when a memo of the snapshot or a change replayed on it is malformed.
    public mutating func receiveMemoSnapshot(_ chunk: Value, epoch: UInt64) throws -> String? {
        switch self.memoStream.chunkArrived(chunk, epoch: epoch) {
        case .ignored, .partial:
            return nil
        case .restart(let request):
            return request
        case .complete(let memos, let replay):
            self.storeMemos = [:]
            for memo in memos {
                guard let id = memo["id"]?.stringValue else {
                    throw StateError(description: "memo.snapshot has a memo without an id")
                }
                if memo["trashed_at"].map({ $0 == .null }) ?? true { self.storeMemos[id] = .init(storeRecord: memo) }
            }
            self.stateSeq += 1
            for change in replay { try self.applyMemoChange(change) }
            return nil
        }
    }

    /// True once a scene is known.
    public var hasScene: Bool { self.scene != nil }

    /// True once a component state (`ui/<kind>/`) has been applied.
    public var hasComponentStates: Bool { !self.states.isEmpty }

    /// True while an animation is running (the worker keeps drawing frames).
    public var isAnimating: Bool { self.animator.isAnimating }

    /// Replaces the scene with a whole `scene` document (from `ui/scene/`).
    ///
    /// - Throws: ``StateError`` naming the JSON path and the rule when the document is not a valid scene.
    public mutating func applyScene(_ document: Value) throws {
        do {
            self.load(try Scene(value: document, file: "ui/scene/"))
        } catch {
            throw StateError(description: "\(error)")
        }
        self.stateSeq += 1
    }

    /// Keeps `payload` (a `state.<kind>` payload) as the latest full state of its `instance`,
    /// decoded into its kind's type: the kind `schema` names (`state.drawer`), else the kind of
    /// the scene's component with that instance id. Memos in it move to their new place, size,
    /// rotation and scale at once, or animated when the state carries `animation`
    /// (`duration_ms`, `delay_ms`, `curve`, `autoreverses`).
    ///
    /// - Returns: completions of animations that the new targets ended.
    /// - Throws: ``StateError`` when the payload does not decode as its kind, or its kind is not
    ///   the kind of the scene's component with that instance id.
    public mutating func applyState(
        _ payload: Value, schema: String? = nil, atMs now: Double
    ) throws -> [Animator.Completion] {
        guard case .map = payload, let instance = payload["instance"]?.stringValue, !instance.isEmpty else {
            throw StateError(description: "a component state needs a map with a non-empty 'instance'")
        }
        do {
            // Finite numbers only: one NaN kept in a state would fail every later frame.
            try payload.checkNumbers(maxMagnitude: Self.maxStateMagnitude)
        } catch {
            throw StateError(description: "state of '\(instance)' at \(error)")
        }
        let state = try self.decode(payload, instance: instance, schema: schema)
        let options = state.animation.map(Animator.Options.init)
        let view = self.views[instance] ?? instance
        guard case .memoBoard(let board) = state else {
            return try self.applyViewState(
                state, overrides: Self.overrides(state), instance: instance, view: view, options: options, atMs: now)
        }
        let wasEditing = self.currentStates[instance].flatMap(Self.editing)
        self.states[instance] = state
        self.staleBoards.remove(instance)
        self.boardsAwaitingFullState.remove(instance)
        self.boards[instance] = board.revision == nil ? nil : MemoBoardReplica(board)
        self.stateSeq += 1
        var completions = self.memosMoved(board.memos, view: view, options: options, atMs: now)
        if let options, let editing = Self.editing(state), editing != wasEditing {
            completions += self.editorOpened(on: editing, memos: board.memos, view: view, options: options, atMs: now)
        }
        return completions
    }

    /// The memo a board's state has open in the editor.
    private static func editing(_ state: ComponentState) -> String? {
        guard case .memoBoard(let board) = state else { return nil }
        return board.editing ?? nil
    }

    /// `payload` as a state of the kind `schema` names or, without one, the kind of the scene's
    /// component `instance`.
    private func decode(_ payload: Value, instance: String, schema: String?) throws -> ComponentState {
        let inScene = self.kinds[instance]
        let named = schema.flatMap(Scene.Component.Kind.init(stateSchema:))
        if let inScene, let named, inScene != named {
            throw StateError(
                description: "a \(named.rawValue) state for '\(instance)', which the scene has as a \(inScene.rawValue)"
            )
        }
        guard let kind = named ?? inScene else {
            throw StateError(description: "a state for '\(instance)', which is not in the scene, without its kind")
        }
        do {
            return try ComponentState(kind: kind, payload: payload)
        } catch {
            throw StateError(description: "\(kind.rawValue) state of '\(instance)': \(error)")
        }
    }

    /// The editor opening on memo `id`, animated: its memo starts where the memo lies on the
    /// board (placed, scaled, rotated) and grows to the editor's frame; the veil and the editor's
    /// bar fade in.
    private mutating func editorOpened(
        on id: String, memos: [MemoBoardState.Memo], view: String, options: Animator.Options, atMs now: Double
    ) -> [Animator.Completion] {
        guard let memo = memos.first(where: { $0.id == id }), let size = self.viewSize(view) else {
            return []
        }
        let frame = SceneLayers.editorFrame(size: size)
        guard let start = SceneLayers.editorStart(memo: memo, editor: frame) else { return [] }
        let names = SceneLayers.MemoBoardLayer.self
        let moves: [(String, [Animator.Property: SIMD2<Double>], [Animator.Property: SIMD2<Double>])] = [
            (
                names.editor,
                [
                    .position: SIMD2(start.origin.x, start.origin.y), .scale: SIMD2(start.scale, 0),
                    .rotation: SIMD2(start.rotation, 0),
                ],
                [.position: SIMD2(frame.minX, frame.minY), .scale: SIMD2(1, 0), .rotation: SIMD2(0, 0)]
            ),
            (names.veil, [.opacity: SIMD2(0, 0)], [.opacity: SIMD2(1, 0)]),
            (names.editorBar, [.opacity: SIMD2(0, 0)], [.opacity: SIMD2(1, 0)]),
        ]
        var completions: [Animator.Completion] = []
        for (name, from, to) in moves {
            let layer = "\(view)/\(name)"
            for effect in self.animator.handle(.targetReceived(layer: layer, values: from, options: nil, atMs: now))
                + self.animator.handle(.targetReceived(layer: layer, values: to, options: options, atMs: now))
            {
                if case .publishCompletion(let completion) = effect { completions.append(completion) }
            }
        }
        return completions
    }

    /// The size of view `id` in the scene.
    private func viewSize(_ id: String) -> Size? {
        guard let frame = self.scene?.view(id)?.frame else { return nil }
        return Size(frame.width, frame.height)
    }

    /// The background image paths of the scene's memo boards (their states' settings, else
    /// their configs'), for the owner to read into ``backgroundImages``.
    public var backgroundPaths: Set<String> {
        self.scene.map { SceneLayers.backgroundPaths(scene: $0, states: self.currentStates) } ?? []
    }

    /// What a memo board delta did.
    public enum BoardDeltaOutcome {
        /// Applied; the completions of animations its memos' new places ended.
        case applied([Animator.Completion])
        /// It does not follow the board's copy (a delta was missed, or no full state came yet):
        /// nothing changed. `askForFullState` is true the first time, so the owner asks once.
        case outOfStep(askForFullState: Bool)
    }

    /// Applies a `memoBoard.delta` payload to its board's copy: the memos it names move to
    /// their new places at once; the board is drawn from the copy from the next frame on.
    ///
    /// - Throws: ``StateError`` for a payload that does not decode.
    public mutating func applyMemoBoardDelta(_ value: Value, atMs now: Double) throws -> BoardDeltaOutcome {
        let delta: MemoBoardDelta
        do {
            delta = try MemoBoardDelta(payload: value)
        } catch {
            throw StateError(description: "memo board delta: \(error)")
        }
        guard var board = self.boards[delta.instance], board.apply(delta) else {
            return .outOfStep(askForFullState: self.boardsAwaitingFullState.insert(delta.instance).inserted)
        }
        self.boards[delta.instance] = board
        self.staleBoards.insert(delta.instance)
        self.stateSeq += 1
        let view = self.views[delta.instance] ?? delta.instance
        return .applied(self.memosMoved(delta.memos, view: view, options: nil, atMs: now))
    }

    /// A memo board's state as the copy kept from its full states and deltas holds it.
    public func memoBoard(_ instance: String) -> MemoBoardState? {
        self.boards[instance]?.state
    }

    /// Gives the animator the memos' new places.
    private mutating func memosMoved(
        _ memos: [MemoBoardState.Memo], view: String, options: Animator.Options?, atMs now: Double
    ) -> [Animator.Completion] {
        var completions: [Animator.Completion] = []
        for memo in memos {
            let layer = "\(view)/\(memo.id)"
            // An animated state moves the memos it changed; the others stay where they are.
            let values = Self.targets(memo).filter { property, value in
                options == nil || self.animator.target(layer: layer, property) != value
            }
            if values.isEmpty { continue }
            let effects = self.animator.handle(
                .targetReceived(layer: layer, values: values, options: options, atMs: now))
            for case .publishCompletion(let completion) in effects { completions.append(completion) }
        }
        return completions
    }

    /// ``states`` with every board changed by deltas written in from its copy.
    private var currentStates: [String: ComponentState] {
        var states = self.states
        for instance in self.staleBoards { states[instance] = self.boards[instance].map { .memoBoard($0.state) } }
        return states
    }

    /// A component other than a memo board: its view's sublayers (the drawer's panel and dim, a
    /// table's rows, …) move to where the new state draws them, animated when the state says so,
    /// starting from where they are on screen. Views never animated skip the bookkeeping.
    private mutating func applyViewState(
        _ state: ComponentState, overrides: [String: Override], instance: String, view: String,
        options: Animator.Options?, atMs now: Double
    ) throws -> [Animator.Completion] {
        guard let scene = self.scene, options != nil || !overrides.isEmpty || self.animatedViews.contains(view) else {
            self.states[instance] = state
            self.stateSeq += 1
            return []
        }
        var states = self.states
        states[instance] = state
        let onScreen = try self.layers(atMs: now).map { Self.sublayers(of: view, in: $0.root) } ?? [:]
        let targets = Self.sublayers(
            of: view, in: SceneLayers.build(scene: scene, states: states, images: self.backgroundImages).root)
        self.states = states
        self.stateSeq += 1
        self.animatedViews.insert(view)
        var completions: [Animator.Completion] = []
        for (name, target) in targets.sorted(by: { $0.key < $1.key }) {
            let key = "\(view)/\(name)"
            if self.animator.values(layer: key, atMs: now).isEmpty, let shown = onScreen[name] {
                _ = self.animator.handle(
                    .targetReceived(layer: key, values: Self.targets(shown), options: nil, atMs: now))
            }
            let override = overrides[name]
            let all = Self.targets(target)
            // Properties an override names move with its options, the rest with the state's.
            for (options, values) in [
                (options, all.filter { override?.properties.contains($0.key) != true }),
                (override?.options, all.filter { override?.properties.contains($0.key) == true }),
            ] {
                // A state that only confirms where a layer is going (the settled state at the
                // end of a slide) must not interrupt the animation taking it there.
                let changed = values.filter { property, value in
                    options != nil || self.animator.target(layer: key, property) != value
                }
                if changed.isEmpty { continue }
                let effects = self.animator.handle(
                    .targetReceived(layer: key, values: changed, options: options, atMs: now))
                for case .publishCompletion(let completion) in effects { completions.append(completion) }
            }
        }
        return completions
    }

    /// Sublayer properties a state animates otherwise than by its `animation`.
    private struct Override {
        var properties: Set<Animator.Property>
        var options: Animator.Options
    }

    /// A slide table's row closing as another opens slides (its front and the buttons under it)
    /// over the state's `close_animation`; a pull-to-refresh arrow turns over `arrow_animation`
    /// while the header moves with the pull.
    private static func overrides(_ state: ComponentState) -> [String: Override] {
        var overrides: [String: Override] = [:]
        if case .slideTable(let table) = state, let row = table.closingRow, let closing = table.closeAnimation {
            let all = Set(Animator.Property.allCases)
            overrides["front\(row)"] = Override(properties: all, options: Animator.Options(closing))
            overrides["actions\(row)"] = Override(properties: all, options: Animator.Options(closing))
        }
        if case .pullToRefresh(let pull) = state, let arrow = pull.arrowAnimation {
            overrides["arrow"] = Override(properties: [.rotation], options: Animator.Options(arrow))
        }
        return overrides
    }

    /// The sublayers of the view layer named `view`, by name.
    private static func sublayers(of view: String, in root: Layer) -> [String: Layer] {
        guard let layer = root.sublayers.first(where: { $0.name == view }) else { return [:] }
        return Dictionary(layer.sublayers.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// A layer's animatable values as drawn (position, size, opacity), and its rotation when its
    /// transform is one (the pull-to-refresh arrow): other transforms are left as drawn.
    private static func targets(_ layer: Layer) -> [Animator.Property: SIMD2<Double>] {
        var values: [Animator.Property: SIMD2<Double>] = [
            .position: SIMD2(layer.frame.minX, layer.frame.minY), .size: SIMD2(layer.frame.width, layer.frame.height),
            .opacity: SIMD2(layer.opacity, 0),
        ]
        if let angle = layer.transform.rotationAngle { values[.rotation] = SIMD2(angle, 0) }
        return values
    }

    /// Applies one `memo.changed` payload: `upsert` shows the memo (unless trashed), `delete`
    /// removes it, `settings` changes nothing drawn yet.
    public mutating func applyMemoChange(_ change: Value) throws {
        switch change["change"]?.stringValue {
        case "upsert":
            guard let memo = change["memo"], let id = memo["id"]?.stringValue else {
                throw StateError(description: "memo.changed upsert needs a memo with an id")
            }
            let trashed = memo["trashed_at"].map { $0 != .null } ?? false
            self.storeMemos[id] = trashed ? nil : MemoBoardState.Memo(storeRecord: memo)
        case "delete":
            guard let id = change["memo"]?["id"]?.stringValue else {
                throw StateError(description: "memo.changed delete needs a memo with an id")
            }
            self.storeMemos[id] = nil
        case "settings":
            break
        case let other:
            throw StateError(description: "memo.changed has an unknown change '\(other ?? "nil")'")
        }
        self.stateSeq += 1
    }

    /// Ends the animations due by `now`; call once per frame, before ``layers(atMs:)``. Boards
    /// changed by deltas are written into their states here, once a frame rather than once a delta.
    public mutating func frameStarted(atMs now: Double) -> [Animator.Completion] {
        if !self.staleBoards.isEmpty {
            self.states = self.currentStates
            self.staleBoards = []
        }
        return self.animator.handle(.frameStarted(atMs: now)).map { effect in
            switch effect {
            case .publishCompletion(let completion): completion
            }
        }
    }

    /// The scene's size in points and its layer tree at `now`, or nil before a scene is known.
    /// A memo board with no `ui/` state yet shows the memo store's memos.
    ///
    /// - Throws: ``RenderError`` when the scene or a state has geometry that cannot be drawn.
    public func layers(atMs now: Double) throws -> (size: Size, root: Layer)? {
        guard let scene = self.scene else { return nil }
        var states = self.currentStates
        for view in scene.views {
            guard let component = view.component, case .memoBoard(let config) = component.config,
                states[component.id] == nil, !self.storeMemos.isEmpty
            else { continue }
            let memos = self.storeMemos.sorted { $0.key < $1.key }.map(\.value)
            states[component.id] = .memoBoard(
                MemoBoardState {
                    $0.instance = component.id
                    $0.tMs = 0
                    $0.memos = memos
                    $0.selected = nil
                    $0.arrangeOrder = .created
                    $0.background = config.background
                })
        }
        var (size, root) = SceneLayers.build(scene: scene, states: states, images: self.backgroundImages)
        for viewIndex in root.sublayers.indices {
            let view = root.sublayers[viewIndex].name
            for index in root.sublayers[viewIndex].sublayers.indices {
                let layer = root.sublayers[viewIndex].sublayers[index]
                let values = self.animator.values(layer: "\(view)/\(layer.name)", atMs: now)
                if !values.isEmpty { root.sublayers[viewIndex].sublayers[index] = layer.applying(values) }
            }
        }
        return (size, root)
    }

    /// The largest magnitude a state's number may have: any int64, no infinity.
    static let maxStateMagnitude = 1e19

    private mutating func load(_ scene: Scene) {
        self.scene = scene
        self.views = [:]
        for view in scene.views {
            if let component = view.component { self.views[component.id] = view.id }
        }
        self.kinds = scene.componentKinds
    }

    /// A memo's animatable values, as ``SceneLayers`` draws them (a minimized one folds to an
    /// upright strip).
    private static func targets(_ memo: MemoBoardState.Memo) -> [Animator.Property: SIMD2<Double>] {
        let frame = memo.drawnFrame
        return [
            .position: SIMD2(frame.minX, frame.minY), .size: SIMD2(frame.width, frame.height),
            .rotation: SIMD2(memo.drawnRotation, 0), .scale: SIMD2(memo.drawnScale, 0),
        ]
    }
}

extension Animator.Options {
    /// The options a state's animation asks for (the decoder checked its numbers).
    init(_ animation: StateAnimation) {
        self.init(
            durationMs: animation.durationMs ?? 0, delayMs: animation.delayMs, curve: AnimationCurve(animation.curve),
            autoreverses: animation.autoreverses)
    }
}
