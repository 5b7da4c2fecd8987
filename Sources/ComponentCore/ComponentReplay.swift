import BusSchema
import GestureCore

/// The offline mode behind `component-host replay`: a file of JSON lines in, component states
/// out, deterministic (time comes from the lines, never from a clock).
///
/// Input lines are gesture events (schema `gesture.event`); a line may also be a component
/// command (`{"t_ms": …, "instance": …, "command": …, "args": …}`), an app lifecycle event
/// (`{"t_ms": …, "event": "will_resign_active" | "did_become_active"}`) or a network state
/// (`{"t_ms": …, "connectivity": "none" | "wired" | "wireless"}`). Malformed lines are counted
/// and skipped. After the last line, timers run on until they stop or ``settle`` has passed.
/// Every line's `t_ms` is an instant on the input source's clock, as the live service runs it.
public struct ComponentReplay: Sendable {
    /// A line that could not be used.
    public struct Problem: Sendable, Hashable, CustomStringConvertible {
        public var line: Int
        public var reason: String

        public var description: String { "line \(self.line): \(self.reason)" }
    }

    /// How long timers run on after the last input line.
    public static let settle = Duration.seconds(10)

    /// Every state published, in order.
    public private(set) var states: [ComponentState] = []
    /// Every memo command sent, in order.
    public private(set) var memoCommands: [MemoCommand] = []
    public private(set) var problems: [Problem] = []
    public private(set) var host: ComponentHost

    private var started = false

    /// A replay to feed line by line with ``add(_:lineNumber:)`` and end with ``finish()``.
    public init(scene: ComponentScene) {
        self.host = ComponentHost(scene: scene)
    }

    /// Replays `text` through a host for `scene`, keeping every state, command and problem.
    public init(scene: ComponentScene, lines text: String) {
        self.init(scene: scene)
        var lineNumber = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let added = self.add(String(line), lineNumber: lineNumber)
            self.collect(added.outputs)
            if let problem = added.problem { self.problems.append(problem) }
        }
        self.collect(self.finish())
    }

    /// Feeds line `lineNumber`; returns what the host sent because of it and, if the line was
    /// skipped, why. Nothing is kept, so a tool streaming a file holds only the host.
    public mutating func add(_ line: String, lineNumber: Int) -> (outputs: [HostOutput], problem: Problem?) {
        if line.allSatisfy(\.isWhitespace) { return ([], nil) }
        let value: Value
        do {
            value = try JSONReader.parse(line)
        } catch {
            return ([], Problem(line: lineNumber, reason: "not JSON: \(error)"))
        }
        // Time drives the host's timers: an infinite or huge t_ms would fire them forever.
        guard let tMs = value["t_ms"]?.doubleValue, NumberRange.timeMs.contains(tMs) else {
            return ([], Problem(line: lineNumber, reason: "no t_ms within \(NumberRange.timeMs)"))
        }
        var outputs: [HostOutput] = []
        if !self.started {
            // A fixed session keeps a replay's command ids the same on every run.
            outputs = self.host.start(at: SourceInstant(milliseconds: tMs), session: "replay")
            self.started = true
        }
        do {
            outputs += try self.feed(value, at: SourceInstant(milliseconds: tMs))
        } catch {
            return (outputs, Problem(line: lineNumber, reason: "\(error)"))
        }
        return (outputs, nil)
    }

    /// Runs the timers on for ``settle`` after the last line; returns what they sent.
    public mutating func finish() -> [HostOutput] {
        var outputs: [HostOutput] = []
        let end = self.host.now + Self.settle
        while let next = self.host.nextTimer, next <= end {
            outputs += self.host.advance(to: next)
        }
        return outputs
    }

    private mutating func feed(_ value: Value, at instant: SourceInstant) throws -> [HostOutput] {
        if value["recognizer"] != nil {
            return self.host.handle(try GestureEvent(messagePack: value.messagePack))
        }
        if value["command"] != nil {
            return self.host.handle(try ComponentCommand(payload: value), at: instant)
        }
        if let event = value["event"]?.stringValue {
            switch event {
            case Lifecycle.Event.willResignActive.rawValue: return self.host.appActiveChanged(false, at: instant)
            case Lifecycle.Event.didBecomeActive.rawValue: return self.host.appActiveChanged(true, at: instant)
            default: throw CodecError(.invalidValue, offset: 0, context: "event: '\(event)'")
            }
        }
        if let name = value["connectivity"]?.stringValue {
            guard let connectivity = Connectivity(rawValue: name) else {
                throw CodecError(.invalidValue, offset: 0, context: "connectivity: '\(name)'")
            }
            return self.host.connectivityChanged(connectivity, at: instant)
        }
        throw CodecError(
            .invalidValue, offset: 0, context: "neither a gesture, a command, a lifecycle event nor a network state")
    }

    private mutating func collect(_ outputs: [HostOutput]) {
        for output in outputs {
            switch output {
            case .state(.memoBoardDelta(let delta)):
                // A replay prints full states: offline, the board's size costs no traffic.
                guard case .memoBoard(var state) = self.host.state(of: delta.instance) else { continue }
                state.tMs = delta.tMs
                self.states.append(.memoBoard(state))
            case .state(let state): self.states.append(state)
            case .memoCommand(let request): self.memoCommands.append(request)
            case .recognizerConfig: break
            }
        }
    }

    /// The states as JSON lines.
    public var jsonLines: String {
        var text = ""
        for state in self.states {
            text += state.payload.json
            text += "\n"
        }
        return text
    }
}
