import Bus
import BusSchema
import InputCore
import ServiceSupport

/// `input-source run`: publishes one `touch/<device>/` ``TouchFrame`` per frame, with every contact.
///
/// Frames come from a paced finite or endless source (script, evemu recording, scenario, flood;
/// see ``FramePacer``) or from a live evdev descriptor watched by the service loop. Every frame goes
/// through a ``StuckTouchGuard`` before it is published; the guard's wake-ups run on one-shot
/// timers of the loop. A finite source ends the service (exit 0) once its last frame, and the
/// cancellations of any contact still down, are sent; so does the removal of the live device,
/// after its contacts are cancelled.
///
/// It subscribes `sys/lifecycle/`: when any service says `will_resign_active` (the app is no
/// longer in front), every contact down is cancelled, as UIKit does, and touches that begin
/// before `did_become_active` are not published (see ``StuckTouchGuard``). Every lifecycle message
/// is counted in health.
public final class InputService {
    /// Where the frames come from.
    public enum Source {
        /// A finite list, sent once or (`loop`) forever.
        case frames([TouchFrame], loop: Bool)
        /// A script or recording read as it is sent, once or (`loop`) forever; what ended it
        /// early (``FileFrames/failure``) ends the service with that error.
        case file(FileFrames, loop: Bool)
        /// The ``FloodGenerator``: `devices` devices at `rate` frames/s each, forever.
        case flood(devices: Int, rate: Double)
        /// A live device (or a pipe delivering `struct input_event` records) named `name` in frames.
        case device(EvdevDevice, name: String, mapper: CoordinateMapper, description: DeviceDescription)
    }

    /// Frames published per loop turn at most, so signals, timers and health keep their turns.
    static let batchLimit = 256

    private let runner: ServiceRunner
    private let source: Source
    private let subscriberWaitMs: Int
    private var pacer: FramePacer?
    private var guardian: StuckTouchGuard
    private var decoder: MultitouchDecoder?
    private var deviceWatch: Int?
    /// The source time and monotonic time of the last frame sent: maps the guard's deadlines (in
    /// source time) onto the monotonic clock, re-anchored at every frame so that a live device's
    /// clock (evdev stamps CLOCK_REALTIME) and a paced recording's both work.
    /// The source's clock, anchored on the last frame sent.
    private var timeline = SourceTimeline(at: MonotonicInstant(nanoseconds: Int64(clamping: Clock.monotonicNs())))
    private var guardTimer: (id: Int, deadline: SourceInstant)?
    private var topics: [String: Topic] = [:]
    private var framesSent: UInt64 = 0
    private var stuckCancelled: UInt64 = 0
    private var devicesRemoved: UInt64 = 0
    private var lifecycleReceived: UInt64 = 0
    private var resignCancelled: UInt64 = 0
    private var appActive = true

    /// - Parameters:
    ///   - runner: the service's bus connection and loop.
    ///   - pace: how finite and flood sources are paced (a live device is never paced).
    ///   - stuckTimeoutMs: how long a contact may stay silent before it is cancelled.
    ///   - subscriberWaitMs: how long to wait for a subscriber of the first device's topic before
    ///     announcing `ready` and sending.
    public init(
        runner: ServiceRunner, source: Source, pace: FramePacer.Pace, stuckTimeoutMs: Int = 10_000,
        subscriberWaitMs: Int = 2000
    ) {
        self.runner = runner
        self.subscriberWaitMs = subscriberWaitMs
        self.source = source
        self.guardian = StuckTouchGuard(timeout: .milliseconds(stuckTimeoutMs))
        switch source {
        case .frames(let frames, let loop):
            self.pacer = FramePacer(frames: loop ? FramePacer.looping(frames) : AnySequence(frames), pace: pace)
        case .file(let file, let loop):
            self.pacer = FramePacer(frames: file.frames(loop: loop), pace: pace)
        case .flood(let devices, let rate):
            self.pacer = FramePacer(frames: FloodGenerator(devices: devices, ratePerDevice: rate), pace: pace)
        case .device(_, let name, let mapper, let description):
            self.decoder = MultitouchDecoder(device: name, description: description, mapper: mapper)
        }
    }

    /// Runs until the source is done, the device is removed, or a stop signal arrives.
    public func run() throws {
        self.runner.healthExtra = { [unowned self] in
            [
                "frames_sent": Value(self.framesSent), "stuck_cancellation_frames": Value(self.stuckCancelled),
                "devices_removed": Value(self.devicesRemoved),
                "lifecycle_received": Value(self.lifecycleReceived),
                "resign_cancellation_frames": Value(self.resignCancelled), "app_active": .bool(self.appActive),
            ]
        }
        var firstDevice = "d0"
        switch self.source {
        case .frames, .file: firstDevice = self.pacer?.nextFrame?.device ?? "d0"
        case .flood: break
        case .device(let device, let name, _, _):
            firstDevice = name
            self.deviceWatch = self.runner.watch(fileDescriptor: device.descriptor) { [unowned self] in
                try self.deviceReadable(device)
            }
        }
        try self.runner.subscribe(["sys/lifecycle/"], filter: SchemaFilter([Lifecycle.self])) {
            [unowned self] delivery, subscriber in
            guard let message = subscriber.decode(delivery, as: Lifecycle.self) else { return }
            try self.lifecycleArrived(message)
        }
        // Timers fire only once the loop runs, after `ready`.
        if self.pacer != nil { self.runner.at(deadlineNs: 0) { [unowned self] in try self.sendDue() } }
        // A PUB drops what no subscription covers: wait for the recognizers (or a tap) first.
        let topic = try Topic.touch(firstDevice)
        if try !self.runner.publisher.waitForSubscriber(matching: topic, timeoutMs: self.subscriberWaitMs) {
            Log.error(
                self.runner.name, "no subscriber for \(topic) after \(self.subscriberWaitMs) ms; publishing anyway")
        }
        try self.runner.run(subscriberWaitMs: 0)
    }

    // MARK: - Paced sources

    private func sendDue() throws {
        guard var pacer = self.pacer else { return }
        let now = Clock.monotonicNs()
        let frames = pacer.take(dueBy: now, limit: Self.batchLimit)
        self.pacer = pacer
        for frame in frames { try self.forward(frame, monoNs: now) }
        if let next = pacer.nextDueNs(now: now) {
            self.runner.at(deadlineNs: next) { [unowned self] in try self.sendDue() }
        } else {
            try self.finish()
        }
    }

    /// Sends the cancellations of contacts still down, then ends the service (with the error
    /// that cut a file short, if one did).
    private func finish() throws {
        for frame in self.guardian.flush() {
            self.stuckCancelled += 1
            try self.publish(frame)
        }
        if case .file(let file, _) = self.source, let failure = file.failure { throw failure }
        self.runner.stop()
    }

    // MARK: - Live device

    private func deviceReadable(_ device: EvdevDevice) throws {
        let batch = device.read()
        let now = Clock.monotonicNs()
        for event in batch.events {
            guard let frame = self.decoder?.handle(.eventRead(event)) else { continue }
            try self.forward(frame, monoNs: now)
        }
        guard let end = batch.end else { return }
        // Removed (or the stream ended): cancel every contact at the device's current time.
        self.devicesRemoved += 1
        if let watch = self.deviceWatch { self.runner.unwatch(watch) }
        self.deviceWatch = nil
        Log.error(self.runner.name, "device removed: \(end)")
        if let frame = self.decoder?.handle(.deviceRemoved(at: self.sourceTime(atMono: now))) {
            try self.forward(frame, monoNs: now)
        }
        try self.finish()
    }

    // MARK: - Lifecycle

    private func lifecycleArrived(_ message: Lifecycle) throws {
        self.lifecycleReceived += 1
        switch message.event {
        case .willResignActive, .didBecomeActive:
            self.appActive = message.event == .didBecomeActive
            let now = self.sourceTime(atMono: Clock.monotonicNs())
            let effects = self.guardian.handle(.activeChanged(self.appActive, at: now))
            try self.apply(effects, counting: \.resignCancelled)
        case .started, .ready, .stopping, .stopped, .resync:
            break
        }
    }

    // MARK: - Guard and publishing

    private func forward(_ frame: TouchFrame, monoNs: UInt64) throws {
        self.timeline.anchor(
            SourceInstant(nanoseconds: frame.tNs), at: MonotonicInstant(nanoseconds: Int64(clamping: monoNs)))
        try self.apply(self.guardian.handle(.frameArrived(frame)))
    }

    /// Carries out the guard's effects; `counter` counts the frames published when they are all
    /// cancellations (made by time passing or by the app resigning active).
    private func apply(
        _ effects: [StuckTouchGuard.Effect], counting counter: ReferenceWritableKeyPath<InputService, UInt64>? = nil
    ) throws {
        for effect in effects {
            switch effect {
            case .publish(let frame):
                if let counter { self[keyPath: counter] += 1 }
                try self.publish(frame)
            case .wake(let deadline):
                self.scheduleGuard(deadline)
            }
        }
    }

    private func scheduleGuard(_ deadline: SourceInstant) {
        guard self.guardTimer?.deadline != deadline else { return }
        if let timer = self.guardTimer { self.runner.cancel(timer: timer.id) }
        let mono = UInt64(clamping: self.timeline.monotonic(at: deadline).nanoseconds)
        let id = self.runner.at(deadlineNs: mono) { [unowned self] in
            self.guardTimer = nil
            let now = Clock.monotonicNs()
            try self.apply(
                self.guardian.handle(.timeElapsed(at: self.sourceTime(atMono: now))), counting: \.stuckCancelled)
        }
        self.guardTimer = (id, deadline)
    }

    /// The source's time now, extrapolated from the last frame sent.
    private func sourceTime(atMono monoNs: UInt64) -> SourceInstant {
        self.timeline.source(at: MonotonicInstant(nanoseconds: Int64(clamping: monoNs)))
    }

    private func publish(_ frame: TouchFrame) throws {
        let topic: Topic
        if let known = self.topics[frame.device] {
            topic = known
        } else {
            topic = try Topic.touch(frame.device)
            self.topics[frame.device] = topic
        }
        try self.runner.publisher.publish(frame, on: topic)
        self.framesSent += 1
    }

}
