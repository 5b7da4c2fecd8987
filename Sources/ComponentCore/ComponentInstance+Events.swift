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
        let translation = gesture.translation ?? GestureEvent.Vector(x: 0, y: 0)
        let velocity = gesture.velocity ?? GestureEvent.Vector(x: 0, y: 0)
        let ended = gesture.state == .ended
        let stopped = gesture.state == .cancelled || gesture.state == .failed
        // Consumed, not copied: binding the machine out of a copy of `self` and storing it back
        // copied it twice per event (a tenth of the host's instructions per gesture).
        switch (consume self, gesture.recognizer, gesture.state) {
        case (.scrollView(var machine), .pan, _):
            let event: ScrollViewMachine.Event
            switch gesture.state {
            case .began: event = .panBegan(at: t)
            case .changed: event = .panChanged(translation: translation, at: t)
            case .ended: event = .panEnded(velocity: velocity, at: t)
            default: event = .panCancelled(at: t)
            }
            defer { self = .scrollView(machine) }
            return machine.handle(event)
        case (.scrollView(var machine), .pinch, _):
            let event: ScrollViewMachine.Event
            switch gesture.state {
            case .began: event = .pinchBegan(at: t)
            case .changed: event = .pinchChanged(scale: gesture.scale ?? 1, at: t)
            default: event = .pinchEnded(at: t)
            }
            defer { self = .scrollView(machine) }
            return machine.handle(event)
        case (.pullToRefresh(var machine), .pan, _):
            let event: PullToRefreshMachine.Event
            switch gesture.state {
            case .began: event = .panBegan(atTop: scrollAtTop, at: t)
            case .changed: event = .panChanged(translationY: translation.y, at: t)
            case .ended: event = .panEnded(at: t)
            default: event = .panCancelled(at: t)
            }
            defer { self = .pullToRefresh(machine) }
            return machine.handle(event)
        case (.pager(var machine), .pan, _):
            let event: PagerMachine.Event
            switch gesture.state {
            case .began: event = .panBegan(at: t)
            case .changed: event = .panChanged(translation: translation, at: t)
            case .ended: event = .panEnded(translation: translation, velocity: velocity, at: t)
            default: event = .panCancelled(at: t)
            }
            defer { self = .pager(machine) }
            return machine.handle(event)
        case (.pager(var machine), .swipe, .recognized):
            guard let direction = gesture.direction else {
                self = .pager(machine)
                return []
            }
            defer { self = .pager(machine) }
            return machine.handle(.swipeRecognized(direction, at: t))
        case (.slideTable(var machine), .swipe, .recognized):
            guard let direction = gesture.direction else {
                self = .slideTable(machine)
                return []
            }
            defer { self = .slideTable(machine) }
            return machine.handle(.swipeRecognized(direction, y: gesture.y, at: t))
        case (.slideTable(var machine), .pan, _):
            let event: SlideTableMachine.Event
            switch gesture.state {
            case .began: event = .panBegan(at: t)
            case .changed: event = .panChanged(translationY: translation.y, at: t)
            default: event = .panEnded(at: t)
            }
            defer { self = .slideTable(machine) }
            return machine.handle(event)
        case (.slideTable(var machine), .touchDown, _):
            let event: SlideTableMachine.Event
            switch gesture.state {
            case .began: event = .touchBegan(y: gesture.y, at: t)
            case .changed: event = .touchMoved(y: gesture.y, at: t)
            case .ended: event = .touchLifted(y: gesture.y, at: t)
            default: event = .touchCancelled(at: t)
            }
            defer { self = .slideTable(machine) }
            return machine.handle(event)
        case (.drawer(var machine), .swipe, .recognized), (.drawer(var machine), .edgePan, .began):
            let direction = gesture.direction ?? (gesture.edge == .right ? .left : .right)
            defer { self = .drawer(machine) }
            return machine.handle(.swipeRecognized(direction, at: t))
        case (.numberPad(var machine), .touchDown, _):
            let event: NumberPadMachine.Event
            switch gesture.state {
            case .began: event = .touchBegan(x: gesture.x, at: t)
            case .changed: event = .touchMoved(x: gesture.x, at: t)
            case .ended: event = .touchLifted(x: gesture.x, at: t)
            default: event = .touchCancelled(at: t)
            }
            defer { self = .numberPad(machine) }
            return machine.handle(event)
        case (.canvas(var machine), .touchDown, _):
            let event: CanvasMachine.Event
            switch gesture.state {
            case .began: event = .touchBegan(x: gesture.x, y: gesture.y, at: t)
            case .changed: event = .touchMoved(x: gesture.x, y: gesture.y, at: t)
            case .ended: event = .touchLifted(x: gesture.x, y: gesture.y, at: t)
            default: event = .touchCancelled(at: t)
            }
            defer { self = .canvas(machine) }
            return machine.handle(event)
        case (.zoomView(var machine), .pinch, _):
            let event: ZoomViewMachine.Event
            switch gesture.state {
            case .began: event = .pinchBegan(x: gesture.x, y: gesture.y, at: t)
            case .changed: event = .pinchChanged(scale: gesture.scale ?? 1, x: gesture.x, y: gesture.y, at: t)
            default: event = .pinchEnded(at: t)
            }
            defer { self = .zoomView(machine) }
            return machine.handle(event)
        case (.zoomView(var machine), .pan, _):
            let event: ZoomViewMachine.Event
            switch gesture.state {
            case .began: event = .panBegan(at: t)
            case .changed: event = .panChanged(translation: translation, at: t)
            default: event = .panEnded(at: t)
            }
            defer { self = .zoomView(machine) }
            return machine.handle(event)
        case (.zoomView(var machine), .doubleTap, .recognized):
            defer { self = .zoomView(machine) }
            return machine.handle(.doubleTapRecognized(x: gesture.x, y: gesture.y, at: t))
        case (.memoBoard(var machine), _, _):
            guard let event = Self.memoEvent(gesture, at: t, ended: ended, stopped: stopped) else {
                self = .memoBoard(machine)
                return []
            }
            defer { self = .memoBoard(machine) }
            return machine.handle(event)
        case (let other, _, _):
            self = other
            return []
        }
    }

    private static func memoEvent(_ gesture: GestureEvent, at t: SourceInstant, ended: Bool, stopped: Bool)
        -> MemoBoardMachine.Event?
    {
        let (x, y) = (gesture.x, gesture.y)
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

    /// Runs `event` through `machine` and stores the machine back. The machine is a copy here;
    /// the hot paths (gestures, timers) move it out of `self` instead.
    mutating func update<M: ComponentMachine>(
        _ machine: inout M, _ event: M.Event, _ wrap: (M) -> ComponentInstance
    ) -> [ComponentEffect] {
        let effects = machine.handle(event)
        self = wrap(machine)
        return effects
    }

    /// The machine's timer fired at `instant`.
    public mutating func timeElapsed(_ instant: SourceInstant) -> [ComponentEffect] {
        // Moved out and back, as in `handle(_:scrollAtTop:)`: timers fire on every animation frame.
        switch consume self {
        case .scrollView(var machine):
            defer { self = .scrollView(machine) }
            return machine.handle(.timeElapsed(instant))
        case .pullToRefresh(var machine):
            defer { self = .pullToRefresh(machine) }
            return machine.handle(.timeElapsed(instant))
        case .pager(var machine):
            defer { self = .pager(machine) }
            return machine.handle(.timeElapsed(instant))
        case .slideTable(var machine):
            defer { self = .slideTable(machine) }
            return machine.handle(.timeElapsed(instant))
        case .drawer(var machine):
            defer { self = .drawer(machine) }
            return machine.handle(.timeElapsed(instant))
        case .memoBoard(var machine):
            defer { self = .memoBoard(machine) }
            return machine.handle(.timeElapsed(instant))
        case let other:
            self = other
            return []
        }
    }

    /// The app is about to stop being active (`true`) or became active again (`false`).
    public mutating func appActiveChanged(_ active: Bool, at instant: SourceInstant) -> [ComponentEffect] {
        return switch (self, active) {
        case (.scrollView(var machine), false):
            self.update(&machine, .appWillResignActive(at: instant), ComponentInstance.scrollView)
        case (.pullToRefresh(var machine), false):
            self.update(&machine, .appWillResignActive(at: instant), ComponentInstance.pullToRefresh)
        case (.pullToRefresh(var machine), true):
            self.update(&machine, .appDidBecomeActive(at: instant), ComponentInstance.pullToRefresh)
        case (.pager(var machine), false):
            self.update(&machine, .appWillResignActive(at: instant), ComponentInstance.pager)
        case (.pager(var machine), true):
            self.update(&machine, .appDidBecomeActive(at: instant), ComponentInstance.pager)
        case (.slideTable(var machine), false):
            self.update(&machine, .appWillResignActive(at: instant), ComponentInstance.slideTable)
        case (.numberPad(var machine), false):
            self.update(&machine, .touchCancelled(at: instant), ComponentInstance.numberPad)
        case (.canvas(var machine), false):
            self.update(&machine, .touchCancelled(at: instant), ComponentInstance.canvas)
        case (.zoomView(var machine), false):
            self.update(&machine, .appWillResignActive(at: instant), ComponentInstance.zoomView)
        case (.memoBoard(var machine), false):
            self.update(&machine, .appWillResignActive(at: instant), ComponentInstance.memoBoard)
        case (.memoBoard(var machine), true):
            self.update(&machine, .appDidBecomeActive(at: instant), ComponentInstance.memoBoard)
        default: []
        }
    }

    /// Network reachability changed.
    public mutating func connectivityChanged(_ connectivity: Connectivity, at instant: SourceInstant)
        -> [ComponentEffect]
    {
        guard case .pullToRefresh(var machine) = self else { return [] }
        return self.update(
            &machine, .connectivityChanged(connectivity, at: instant), ComponentInstance.pullToRefresh)
    }

    /// The zoom view a canvas follows published its scale and content offset.
    public mutating func followedZoomChanged(_ zoom: ZoomViewState) -> [ComponentEffect] {
        guard case .canvas(var machine) = self else { return [] }
        let event = CanvasMachine.Event.zoomChanged(
            scale: zoom.scale, offsetX: zoom.offsetX, offsetY: zoom.offsetY, at: SourceInstant(milliseconds: zoom.tMs))
        return self.update(&machine, event, ComponentInstance.canvas)
    }

    /// Feeds a memo store message to a memo board.
    public mutating func memoEvent(_ event: MemoBoardMachine.Event) -> [ComponentEffect] {
        guard case .memoBoard(var machine) = self else { return [] }
        return self.update(&machine, event, ComponentInstance.memoBoard)
    }
}

/// The shape every component machine shares.
public protocol ComponentMachine: Sendable {
    associatedtype Event: Sendable
    mutating func handle(_ event: Event) -> [ComponentEffect]
}

extension ScrollViewMachine: ComponentMachine {}
extension PullToRefreshMachine: ComponentMachine {}
extension PagerMachine: ComponentMachine {}
extension SlideTableMachine: ComponentMachine {}
extension DrawerMachine: ComponentMachine {}
extension NumberPadMachine: ComponentMachine {}
extension CanvasMachine: ComponentMachine {}
extension ZoomViewMachine: ComponentMachine {}
extension MemoBoardMachine: ComponentMachine {}
