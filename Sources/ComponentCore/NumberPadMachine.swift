import BusSchema

/// A ten-key pad in one row. While a finger is down the key under it is highlighted with its
/// popup (left-edge, inner or right-edge kind) and moving across keys moves the highlight; on
/// lift the digit is emitted at once as `touchedString` — never delayed — and appended to the
/// `sequentialString` if the previous tap was within the sequence window (0.75 s). Disabled keys
/// ignore touches.
public struct NumberPadMachine: Sendable {
    public struct Config: Sendable, Hashable {
        public var layout = NumberPadState.Layout.standard
        public var enabled = Set(0...9)
        public var sequenceWindow = Duration.milliseconds(750)
        /// Left edge and width of the key row in scene points.
        public var left = 0.0
        public var width = 1000.0
    }

    public enum Event: Sendable, Equatable {
        /// The touch-down recognizer began at scene `x` (the instant the finger landed).
        case touchBegan(x: Double, at: SourceInstant)
        case touchMoved(x: Double, at: SourceInstant)
        case touchLifted(x: Double, at: SourceInstant)
        /// A second finger landed, or the app resigned active.
        case touchCancelled(at: SourceInstant)
        case enabledSetChanged(Set<Int>, at: SourceInstant)
    }

    private enum State: Sendable {
        case idle
        /// A finger is down; `key` is the enabled key under it, if any.
        case touching(key: Int?)
    }

    public let instance: String
    public let config: Config
    private var state: State = .idle
    private var enabled: Set<Int>
    private var touchedString = ""
    private var sequentialString = ""
    private var lastTap: SourceInstant?

    public init(instance: String, config: Config) {
        self.instance = instance
        self.config = config
        self.enabled = config.enabled
    }

    public mutating func handle(_ event: Event) -> [ComponentEffect] {
        switch (self.state, event) {
        case (.idle, .touchBegan(let x, let now)):
            self.state = .touching(key: self.enabledKey(at: x))
            return [self.publish(now)]
        case (.touching(let key), .touchMoved(let x, let now)):
            let next = self.enabledKey(at: x)
            guard next != key else { return [] }
            self.state = .touching(key: next)
            return [self.publish(now)]
        case (.touching, .touchLifted(let x, let now)):
            self.state = .idle
            guard let key = self.enabledKey(at: x) else { return [self.publish(now)] }
            let digit = String(self.digit(key))
            self.touchedString = digit
            if let last = self.lastTap, now - last <= self.config.sequenceWindow {
                self.sequentialString += digit
            } else {
                self.sequentialString = digit
            }
            self.lastTap = now
            return [self.publish(now)]
        case (.touching, .touchCancelled(let now)):
            self.state = .idle
            return [self.publish(now)]
        case (_, .enabledSetChanged(let digits, let now)):
            self.enabled = digits
            if case .touching(let key?) = self.state, !digits.contains(self.digit(key)) {
                self.state = .touching(key: nil)
            }
            return [self.publish(now)]
        default:
            return []
        }
    }

    /// The key index (0…9, left to right) under scene `x` if its digit is enabled.
    private func enabledKey(at x: Double) -> Int? {
        guard self.config.width > 0 else { return nil }
        let index = min(max(Int(saturating: (x - self.config.left) / self.config.width * 10, .down), 0), 9)
        return self.enabled.contains(self.digit(index)) ? index : nil
    }

    private func digit(_ key: Int) -> Int {
        self.config.layout.digits[key]
    }

    /// The state as published.
    public func snapshot(at now: SourceInstant) -> NumberPadState {
        var highlighted: Int?
        var popup: NumberPadState.Popup?
        if case .touching(let key?) = self.state {
            let digit = self.digit(key)
            highlighted = digit
            popup = NumberPadState.Popup {
                $0.kind = key == 0 ? .left : key == 9 ? .right : .inner
                $0.digit = digit
            }
        }
        let order = (0...9).map(self.digit)
        return NumberPadState {
            $0.instance = self.instance
            $0.tMs = now.milliseconds
            $0.layout = self.config.layout
            $0.enabled = order.filter(self.enabled.contains)
            $0.highlighted = highlighted
            $0.popup = popup
            $0.touchedString = self.touchedString
            $0.sequentialString = self.sequentialString
        }
    }

    private func publish(_ now: SourceInstant) -> ComponentEffect {
        .publishState(.numberPad(self.snapshot(at: now)))
    }
}
