import BusSchema

extension ComponentInstance {
    /// Feeds a gesture event to the machine, as the event its kind understands.
    ///
    /// - Parameters:
    ///   - t: the gesture's `t_ms`, on the source's clock.
    ///   - scrollAtTop: for a pull-to-refresh header, whether its scroll view's content is at the top.
    public mutating func handle(_ gesture: GestureEvent, at t: SourceInstant, scrollAtTop: Bool = true)
        -> [ComponentEffect]
    {
        if case .memoBoard = self {
            guard let event = Self.memoEvent(gesture, at: t) else { return [] }
            return self.memoEvent(event)
        }
        guard let event = self.event(for: gesture, at: t, scrollAtTop: scrollAtTop) else { return [] }
        return self.apply(event)
    }

    /// The event this kind's machine makes of `gesture`; nil where it takes none.
    @inline(__always)
    private func event(for gesture: GestureEvent, at t: SourceInstant, scrollAtTop: Bool) -> Event? {
        let translation = gesture.translation ?? GestureEvent.Vector(x: 0, y: 0)
        let velocity = gesture.velocity ?? GestureEvent.Vector(x: 0, y: 0)
        let (x, y, scale) = (gesture.x, gesture.y, gesture.scale ?? 1)
        return switch (self, gesture.recognizer, gesture.state) {
        case (.scrollView, .pan, .began): .scrollView(.panBegan(at: t))
        case (.scrollView, .pan, .changed): .scrollView(.panChanged(translation: translation, at: t))
        case (.scrollView, .pan, .ended): .scrollView(.panEnded(velocity: velocity, at: t))
        case (.scrollView, .pan, _): .scrollView(.panCancelled(at: t))
        case (.scrollView, .pinch, .began): .scrollView(.pinchBegan(at: t))
        case (.scrollView, .pinch, .changed): .scrollView(.pinchChanged(scale: scale, at: t))
        case (.scrollView, .pinch, _): .scrollView(.pinchEnded(at: t))
        case (.pullToRefresh, .pan, .began): .pullToRefresh(.panBegan(atTop: scrollAtTop, at: t))
        case (.pullToRefresh, .pan, .changed): .pullToRefresh(.panChanged(translationY: translation.y, at: t))
        case (.pullToRefresh, .pan, .ended): .pullToRefresh(.panEnded(at: t))
        case (.pullToRefresh, .pan, _): .pullToRefresh(.panCancelled(at: t))
        case (.pager, .pan, .began): .pager(.panBegan(at: t))
        case (.pager, .pan, .changed): .pager(.panChanged(translation: translation, at: t))
        case (.pager, .pan, .ended): .pager(.panEnded(translation: translation, velocity: velocity, at: t))
        case (.pager, .pan, _): .pager(.panCancelled(at: t))
        case (.pager, .swipe, .recognized): gesture.direction.map { .pager(.swipeRecognized($0, at: t)) }
        case (.slideTable, .swipe, .recognized):
            gesture.direction.map { .slideTable(.swipeRecognized($0, y: y, at: t)) }
        case (.slideTable, .pan, .began): .slideTable(.panBegan(at: t))
        case (.slideTable, .pan, .changed): .slideTable(.panChanged(translationY: translation.y, at: t))
        case (.slideTable, .pan, _): .slideTable(.panEnded(at: t))
        case (.slideTable, .touchDown, .began): .slideTable(.touchBegan(y: y, at: t))
        case (.slideTable, .touchDown, .changed): .slideTable(.touchMoved(y: y, at: t))
        case (.slideTable, .touchDown, .ended): .slideTable(.touchLifted(y: y, at: t))
        case (.slideTable, .touchDown, _): .slideTable(.touchCancelled(at: t))
        case (.drawer, .swipe, .recognized), (.drawer, .edgePan, .began):
            .drawer(.swipeRecognized(gesture.direction ?? (gesture.edge == .right ? .left : .right), at: t))
        case (.numberPad, .touchDown, .began): .numberPad(.touchBegan(x: x, at: t))
        case (.numberPad, .touchDown, .changed): .numberPad(.touchMoved(x: x, at: t))
        case (.numberPad, .touchDown, .ended): .numberPad(.touchLifted(x: x, at: t))
        case (.numberPad, .touchDown, _): .numberPad(.touchCancelled(at: t))
        case (.canvas, .touchDown, .began): .canvas(.touchBegan(x: x, y: y, at: t))
        case (.canvas, .touchDown, .changed): .canvas(.touchMoved(x: x, y: y, at: t))
        case (.canvas, .touchDown, .ended): .canvas(.touchLifted(x: x, y: y, at: t))
        case (.canvas, .touchDown, _): .canvas(.touchCancelled(at: t))
        case (.zoomView, .pinch, .began): .zoomView(.pinchBegan(x: x, y: y, at: t))
        case (.zoomView, .pinch, .changed): .zoomView(.pinchChanged(scale: scale, x: x, y: y, at: t))
        case (.zoomView, .pinch, _): .zoomView(.pinchEnded(at: t))
        case (.zoomView, .pan, .began): .zoomView(.panBegan(at: t))
        case (.zoomView, .pan, .changed): .zoomView(.panChanged(translation: translation, at: t))
        case (.zoomView, .pan, _): .zoomView(.panEnded(at: t))
        case (.zoomView, .doubleTap, .recognized): .zoomView(.doubleTapRecognized(x: x, y: y, at: t))
        default: nil
        }
    }

    private static func memoEvent(_ gesture: GestureEvent, at t: SourceInstant) -> MemoBoardMachine.Event? {
        let (x, y) = (gesture.x, gesture.y)
        let ended = gesture.state == .ended
        let stopped = gesture.state == .cancelled || gesture.state == .failed
        switch (gesture.recognizer, gesture.state) {
        case (.tap, .recognized): return .tapRecognized(x: x, y: y, at: t)
        case (.doubleTap, .recognized): return .doubleTapRecognized(x: x, y: y, at: t)
        case (.longPress, .began): return .longPressBegan(x: x, y: y, at: t)
        case (.pan, .began): return .panBegan(x: x, y: y, at: t)
        case (.pan, .changed):
            return .panChanged(translation: gesture.translation ?? GestureEvent.Vector(x: 0, y: 0), at: t)
        case (.pinch, .began): return .pinchBegan(x: x, y: y, at: t)
        case (.pinch, .changed): return .pinchChanged(scale: gesture.scale ?? 1, at: t)
        case (.rotation, .began): return .rotationBegan(x: x, y: y, at: t)
        case (.rotation, .changed): return .rotationChanged(rotation: gesture.rotation ?? 0, at: t)
        case (.pan, _) where ended: return .panEnded(at: t)
        case (.pinch, _) where ended, (.rotation, _) where ended: return .transformEnded(at: t)
        case (.pan, _) where stopped, (.pinch, _) where stopped, (.rotation, _) where stopped:
            return .gestureCancelled(at: t)
        default: return nil
        }
    }

    /// The machine's timer fired at `instant`.
    public mutating func timeElapsed(_ instant: SourceInstant) -> [ComponentEffect] {
        switch self {
        case .scrollView: self.apply(.scrollView(.timeElapsed(instant)))
        case .pullToRefresh: self.apply(.pullToRefresh(.timeElapsed(instant)))
        case .pager: self.apply(.pager(.timeElapsed(instant)))
        case .slideTable: self.apply(.slideTable(.timeElapsed(instant)))
        case .drawer: self.apply(.drawer(.timeElapsed(instant)))
        case .memoBoard: self.memoEvent(.timeElapsed(instant))
        case .numberPad, .canvas, .zoomView: []
        }
    }

    /// The app is about to stop being active (`false`) or became active again (`true`).
    public mutating func appActiveChanged(_ active: Bool, at instant: SourceInstant) -> [ComponentEffect] {
        if case .memoBoard = self {
            return self.memoEvent(active ? .appDidBecomeActive(at: instant) : .appWillResignActive(at: instant))
        }
        let event: Event? =
            switch (self, active) {
            case (.scrollView, false): .scrollView(.appWillResignActive(at: instant))
            case (.pullToRefresh, false): .pullToRefresh(.appWillResignActive(at: instant))
            case (.pullToRefresh, true): .pullToRefresh(.appDidBecomeActive(at: instant))
            case (.pager, false): .pager(.appWillResignActive(at: instant))
            case (.pager, true): .pager(.appDidBecomeActive(at: instant))
            case (.slideTable, false): .slideTable(.appWillResignActive(at: instant))
            case (.numberPad, false): .numberPad(.touchCancelled(at: instant))
            case (.canvas, false): .canvas(.touchCancelled(at: instant))
            case (.zoomView, false): .zoomView(.appWillResignActive(at: instant))
            default: nil
            }
        guard let event else { return [] }
        return self.apply(event)
    }

    /// Network reachability changed.
    public mutating func connectivityChanged(_ connectivity: Connectivity, at instant: SourceInstant)
        -> [ComponentEffect]
    {
        self.apply(.pullToRefresh(.connectivityChanged(connectivity, at: instant)))
    }

    /// The zoom view a canvas follows published its scale and content offset.
    public mutating func followedZoomChanged(_ zoom: ZoomViewState) -> [ComponentEffect] {
        let event = CanvasMachine.Event.zoomChanged(
            scale: zoom.scale, offsetX: zoom.offsetX, offsetY: zoom.offsetY, at: SourceInstant(milliseconds: zoom.tMs))
        return self.apply(.canvas(event))
    }

    /// Feeds a memo store message to a memo board.
    public mutating func memoEvent(_ event: MemoBoardMachine.Event) -> [ComponentEffect] {
        switch consume self {
        case .memoBoard(var machine):
            defer { self = .memoBoard(machine) }
            return machine.handle(event)
        case let other:
            self = other
            return []
        }
    }

    /// An event for one kind's machine (the memo board's go through ``memoEvent(_:)``: its
    /// events are large, and every other kind's event would be moved at their size).
    enum Event {
        case scrollView(ScrollViewMachine.Event)
        case pullToRefresh(PullToRefreshMachine.Event)
        case pager(PagerMachine.Event)
        case slideTable(SlideTableMachine.Event)
        case drawer(DrawerMachine.Event)
        case numberPad(NumberPadMachine.Event)
        case canvas(CanvasMachine.Event)
        case zoomView(ZoomViewMachine.Event)
    }

    /// Runs `event` through the machine if it is of the event's kind (no effects if not): the one
    /// switch that takes a machine out of `self` and stores it back. Consumed, not copied:
    /// binding the machine out of a copy of `self` and storing it back copied it twice per event
    /// (a tenth of the host's instructions per gesture); inlined, so the event is built in place.
    @inline(__always)
    mutating func apply(_ event: Event) -> [ComponentEffect] {
        var effects: [ComponentEffect] = []
        switch (consume self, event) {
        case (.scrollView(var machine), .scrollView(let event)):
            (effects, self) = (machine.handle(event), .scrollView(machine))
        case (.pullToRefresh(var machine), .pullToRefresh(let event)):
            (effects, self) = (machine.handle(event), .pullToRefresh(machine))
        case (.pager(var machine), .pager(let event)): (effects, self) = (machine.handle(event), .pager(machine))
        case (.slideTable(var machine), .slideTable(let event)):
            (effects, self) = (machine.handle(event), .slideTable(machine))
        case (.drawer(var machine), .drawer(let event)): (effects, self) = (machine.handle(event), .drawer(machine))
        case (.numberPad(var machine), .numberPad(let event)):
            (effects, self) = (machine.handle(event), .numberPad(machine))
        case (.canvas(var machine), .canvas(let event)): (effects, self) = (machine.handle(event), .canvas(machine))
        case (.zoomView(var machine), .zoomView(let event)):
            (effects, self) = (machine.handle(event), .zoomView(machine))
        case (let other, _): self = other
        }
        return effects
    }
}
