import BusSchema
import GestureCore

/// The offline mode behind `component-host replay`: a file of JSON lines in, component states
/// out, deterministic (time comes from the lines, never from a clock).
///
/// Input lines are gesture events (schema `gesture.event`); a line may also be a component
/// command (`{"t_ms": …, "instance": …, "command": …, "args": …}`), an app lifecycle event
/// (`{"t_ms": …, "event": "will_resign_active" | "did_become_active"}`) or a network state
/// (`{"t_ms": …, "connectivity": "none" | "wired" | "wireless"}`). Malformed lines are counted
/// and skipped. After the last line, timers run on until they stop or ``settleMs`` has passed.
public struct ComponentReplay: Sendable {
    /// A line that could not be used.
    public struct Problem: Sendable, Hashable, CustomStringConvertible {
        public var line: Int
        public var reason: String

        public var description: String { "line \(self.line): \(self.reason)" }
    }

    /// How long timers run on after the last input line.
    public static let settleMs = 10_000.0

    /// Every state published, in order.
    public private(set) var states: [ComponentState] = []
    /// Every memo command sent, in order.
    public private(set) var memoCommands: [MemoCommand] = []
    public private(set) var problems: [Problem] = []
    public private(set) var host: ComponentHost

    /// Replays `text` through a host for `scene`.
    public init(scene: ComponentScene, lines text: String) throws(SceneError) {
        self.host = try ComponentHost(scene: scene)
        var started = false
        var lineNumber = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            if line.allSatisfy(\.isWhitespace) { continue }
            let value: Value
            do {
                value = try JSONReader.parse(String(line))
            } catch {
                self.problems.append(Problem(line: lineNumber, reason: "not JSON: \(error)"))
                continue
            }
            guard let tMs = value["t_ms"]?.doubleValue else {
                self.problems.append(Problem(line: lineNumber, reason: "no t_ms"))
                continue
            }
            if !started {
                // A fixed session keeps a replay's command ids the same on every run.
                self.collect(self.host.start(tMs: tMs, session: "replay"))
                started = true
            }
            do {
                self.collect(try self.feed(value, tMs: tMs))
            } catch {
                self.problems.append(Problem(line: lineNumber, reason: "\(error)"))
            }
        }
        let end = self.host.now + Self.settleMs
        while let next = self.host.nextTimer, next <= end {
            self.collect(self.host.advance(to: next))
        }
    }

    private mutating func feed(_ value: Value, tMs: Double) throws -> [HostOutput] {
        if value["recognizer"] != nil {
            return self.host.handle(try GestureEvent(messagePack: value.messagePack))
        }
        if value["command"] != nil {
            return self.host.handle(try ComponentCommand(payload: value), tMs: tMs)
        }
        if let event = value["event"]?.stringValue {
            switch event {
            case Lifecycle.Event.willResignActive.rawValue: return self.host.appActiveChanged(false, tMs: tMs)
            case Lifecycle.Event.didBecomeActive.rawValue: return self.host.appActiveChanged(true, tMs: tMs)
            default: throw CodecError(.invalidValue, offset: 0, context: "event: '\(event)'")
            }
        }
        if let name = value["connectivity"]?.stringValue {
            guard let connectivity = Connectivity(rawValue: name) else {
                throw CodecError(.invalidValue, offset: 0, context: "connectivity: '\(name)'")
            }
            return self.host.connectivityChanged(connectivity, tMs: tMs)
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
            case .animation: break
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
