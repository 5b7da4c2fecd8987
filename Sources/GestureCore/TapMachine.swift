import BusSchema

#if canImport(Glibc)
    import Glibc
#endif

/// Tap and double tap: `tapsRequired` taps of `touchesRequired` fingers (a doubleTap needs two).
///
/// Fails when a finger moves beyond the slop, when more fingers than required land, when a
/// finger stays down longer than `maxTapDuration`, when the next tap lands sooner than
/// `doubleTapMinInterval` or later than `doubleTapTimeout` after the lift or farther than
/// `doubleTapDistance` from the first tap (Android/Chromium double-tap rules).
struct TapMachine: RecognizerMachine {
    /// The taps of one sequence so far.
    private struct Progress: Sendable, Hashable {
        var tapsDone = 0
        /// When the current tap's first finger landed; between taps, when the last tap lifted.
        var mark: SourceInstant
        /// When it fails unless the tap lifts, or the next lands: `mark` plus the maximum tap
        /// duration, or between taps plus the double-tap timeout (taken once, at the mark).
        var deadline: SourceInstant
        /// The most fingers down in the current tap, and their centroid then (a tap is where its
        /// fingers were with all of them down: they lift one by one).
        var mostTouches = 0
        var x = 0.0
        var y = 0.0
        /// Where the first tap was.
        var firstX = 0.0
        var firstY = 0.0
    }

    private enum State: Sendable, Hashable {
        case possible
        /// A tap's fingers are down; it fails at `mark + maxTapDuration`.
        case down(Progress)
        /// `tapsDone` taps are done and the next is awaited until `mark + doubleTapTimeout`.
        case betweenTaps(Progress)
        /// Recognized where the last tap's fingers were.
        case recognized(x: Double, y: Double)
        case failed
    }

    var settings: RecognizerSettings
    private var state = State.possible

    init(kind: GestureEvent.Kind, settings: RecognizerSettings, screen: Rect) {
        self.settings = settings
    }

    mutating func restart() { self.state = .possible }

    var status: MachineStatus {
        switch self.state {
        case .possible: .possible
        case .down(let progress): MachineStatus(isUnderway: progress.tapsDone > 0, deadline: progress.deadline)
        case .betweenTaps(let progress): MachineStatus(isUnderway: true, deadline: progress.deadline)
        case .recognized, .failed: .done
        }
    }

    mutating func handle(_ event: RecognizerEvent, touches: inout FollowedTouches) -> Proposal? {
        switch (event, self.state) {
        case (.frameEnded(let now), .possible):
            return self.judge(touches, Progress(mark: now, deadline: now), now: now)
        case (.frameEnded(let now), .down(let progress)), (.frameEnded(let now), .betweenTaps(let progress)):
            return self.judge(touches, progress, now: now)
        case (.deadlinePassed, .down), (.deadlinePassed, .betweenTaps):
            // Held too long, or the next tap never came.
            self.state = .failed
            return .fail
        case (.arenaClosed, .possible), (.arenaClosed, .down), (.arenaClosed, .betweenTaps):
            self.state = .failed
            return nil
        case (.frameEnded, _), (.deadlinePassed, _), (.arenaClosed, _):
            return nil
        }
    }

    private mutating func judge(_ touches: borrowing FollowedTouches, _ before: Progress, now: SourceInstant)
        -> Proposal?
    {
        var progress = before
        if touches.cancelled { return self.fail() }
        var startsTap = false
        if touches.landedCount > 0 {
            startsTap = touches.down.count == touches.landedCount
            if startsTap, progress.tapsDone > 0 {
                let (x, y) = touches.location
                if now - progress.mark < self.settings.doubleTapMinInterval { return self.fail() }
                if hypot(x - progress.firstX, y - progress.firstY) > self.settings.doubleTapDistance {
                    return self.fail()
                }
            }
            if startsTap {
                progress.mark = now
                progress.deadline = now + self.settings.maxTapDuration
            }
            if touches.down.count > progress.mostTouches {
                progress.mostTouches = touches.down.count
                (progress.x, progress.y) = touches.location
            }
            if touches.down.count > self.settings.touchesRequired { return self.fail() }
        }
        if touches.anyMoved(beyond: self.settings.slop) { return self.fail() }
        guard !touches.lifted.isEmpty, touches.down.isEmpty else {
            // A landing starts a tap (and its timer); otherwise the timer already running stays.
            switch self.state {
            case _ where startsTap: self.state = .down(progress)
            case .down: self.state = .down(progress)
            case .betweenTaps: self.state = .betweenTaps(progress)
            default: break
            }
            return nil
        }
        // Every finger of this tap has lifted.
        guard progress.mostTouches == self.settings.touchesRequired else { return self.fail() }
        progress.tapsDone += 1
        if progress.tapsDone == 1 { (progress.firstX, progress.firstY) = (progress.x, progress.y) }
        if progress.tapsDone >= self.settings.tapsRequired {
            self.state = .recognized(x: progress.x, y: progress.y)
            return .recognize
        }
        progress.mostTouches = 0
        progress.mark = now
        progress.deadline = now + self.settings.doubleTapTimeout
        self.state = .betweenTaps(progress)
        return nil
    }

    private mutating func fail() -> Proposal {
        self.state = .failed
        return .fail
    }

    mutating func describe(into event: inout GestureEvent) {
        guard case .recognized(let x, let y) = self.state, event.state == .recognized else { return }
        // With all its fingers, where they were down together.
        (event.x, event.y) = (x, y)
        event.touches = self.settings.touchesRequired
    }
}
