/// UIView block animations for the render worker: targets arrive with an optional duration,
/// delay and curve; values are interpolated from what is on screen; a new target mid-flight
/// restarts from the current value; each animation ends once, finished or interrupted.
///
/// Time is an input (milliseconds on any monotonic scale); nothing here reads a clock.
public struct Animator: Sendable {
    /// A property the animator can interpolate.
    public enum Property: String, Sendable, Hashable, CaseIterable {
        case x, y, width, height, opacity, rotation, scale
    }

    /// How a change is animated; nil options mean "apply at once".
    public struct Options: Sendable, Hashable {
        /// Names the animation in its completion effect.
        public var id: String
        public var durationMs: Double
        public var delayMs: Double
        public var curve: AnimationCurve

        public init(id: String, durationMs: Double, delayMs: Double = 0, curve: AnimationCurve = .easeInOut) {
            self.id = id
            self.durationMs = durationMs
            self.delayMs = delayMs
            self.curve = curve
        }
    }

    /// What happened.
    public enum Event: Sendable {
        /// New target values for a layer arrived at `atMs`, animated with `options` or at once.
        case targetReceived(layer: String, values: [Property: Double], options: Options?, atMs: Double)
        /// A frame is about to be rendered at `atMs`.
        case frameStarted(atMs: Double)
    }

    /// What the owner must do: publish `render/animation/` completion events.
    public enum Effect: Sendable, Hashable {
        case animationEnded(id: String, finished: Bool)
    }

    private enum State: Sendable {
        case resting(Double)
        case moving(from: Double, to: Double, startMs: Double, options: Options)
    }

    private struct Key: Hashable {
        let layer: String
        let property: Property
    }

    private var states: [Key: State] = [:]
    /// Animations still running, with how many properties each still moves.
    private var running: [String: Int] = [:]

    public init() {}

    /// Advances the animations and returns the completions to publish.
    public mutating func handle(_ event: Event) -> [Effect] {
        switch event {
        case .targetReceived(let layer, let values, let options, let now):
            var effects: [Effect] = []
            for property in Property.allCases {
                guard let target = values[property], target.isFinite else { continue }
                let key = Key(layer: layer, property: property)
                let current = value(key, atMs: now)
                if case .moving(_, _, _, let old) = states[key] {
                    effects += release(old.id, finished: false)
                }
                if let options, options.durationMs > 0 || options.delayMs > 0 {
                    states[key] = .moving(from: current ?? target, to: target, startMs: now, options: options)
                    running[options.id, default: 0] += 1
                } else {
                    states[key] = .resting(target)
                }
            }
            if let options, options.durationMs <= 0, options.delayMs <= 0 {
                effects.append(.animationEnded(id: options.id, finished: true))
            }
            return effects
        case .frameStarted(let now):
            var effects: [Effect] = []
            for (key, state) in states {
                guard case .moving(_, let to, let start, let options) = state,
                    now >= start + options.delayMs + options.durationMs
                else { continue }
                states[key] = .resting(to)
                effects += release(options.id, finished: true)
            }
            return effects.sorted { "\($0)" < "\($1)" }
        }
    }

    /// The value of a layer's property at `atMs`, or nil when it was never set.
    public func value(layer: String, _ property: Property, atMs now: Double) -> Double? {
        value(Key(layer: layer, property: property), atMs: now)
    }

    /// Every known property of a layer at `atMs`.
    public func values(layer: String, atMs now: Double) -> [Property: Double] {
        var result: [Property: Double] = [:]
        for property in Property.allCases { result[property] = value(layer: layer, property, atMs: now) }
        return result
    }

    private func value(_ key: Key, atMs now: Double) -> Double? {
        switch states[key] {
        case nil: return nil
        case .resting(let value): return value
        case .moving(let from, let to, let start, let options):
            let elapsed = now - start - options.delayMs
            let u = options.durationMs > 0 ? elapsed / options.durationMs : (elapsed >= 0 ? 1 : 0)
            return from + (to - from) * options.curve.progress(u)
        }
    }

    /// One property of animation `id` stopped; reports the end once: interrupted at the first
    /// interruption, finished when its last property arrives.
    private mutating func release(_ id: String, finished: Bool) -> [Effect] {
        guard let count = running[id] else { return [] }
        if !finished {
            running[id] = nil
            return [.animationEnded(id: id, finished: false)]
        }
        if count <= 1 {
            running[id] = nil
            return [.animationEnded(id: id, finished: true)]
        }
        running[id] = count - 1
        return []
    }
}

extension Layer {
    /// The layer with animated values applied: position (x, y), size, opacity, and rotation
    /// (radians) and scale as its transform.
    public func applying(_ values: [Animator.Property: Double]) -> Layer {
        var layer = self
        if let x = values[.x] { layer.frame.origin.x = x }
        if let y = values[.y] { layer.frame.origin.y = y }
        if let width = values[.width] { layer.frame.size.width = max(0, width) }
        if let height = values[.height] { layer.frame.size.height = max(0, height) }
        if let opacity = values[.opacity] { layer.opacity = min(max(opacity, 0), 1) }
        if values[.rotation] != nil || values[.scale] != nil {
            let s = values[.scale] ?? 1
            layer.transform = AffineTransform.scale(s, s).concatenating(.rotation(values[.rotation] ?? 0))
        }
        return layer
    }
}
