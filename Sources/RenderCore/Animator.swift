/// UIView block animations for the render worker: targets arrive with an optional duration,
/// delay, curve and autoreverse; values are interpolated from what is on screen; a new target mid-flight
/// restarts from the current value; each (layer, property) animation ends once, finished or
/// interrupted, as a `render.animation` completion.
///
/// Time is an input (milliseconds on any monotonic scale); nothing here reads a clock.
public struct Animator: Sendable {
    /// An animatable property, named as in the `render.animation` schema. Position and size
    /// carry two components (x, y / width, height); the others use `x` only.
    public enum Property: String, Sendable, Hashable, CaseIterable {
        case position, size, opacity, rotation, scale
    }

    /// How a change is animated; nil options mean "apply at once".
    public struct Options: Sendable, Hashable {
        /// The animation id from the state change, echoed in its completions.
        public var id: Int?
        public var durationMs: Double
        public var delayMs: Double
        public var curve: AnimationCurve
        /// `UIViewAnimationOptionAutoreverse` (SBAnimator's `setAnimationRepeatAutoreverses:`):
        /// the value runs to the target over `durationMs`, back over as long again, and then
        /// shows the target, the model value, as UIKit's does once the animation is removed.
        public var autoreverses: Bool

        public init(
            id: Int? = nil, durationMs: Double, delayMs: Double = 0, curve: AnimationCurve = .easeInOut,
            autoreverses: Bool = false
        ) {
            self.id = id
            self.durationMs = durationMs
            self.delayMs = delayMs
            self.curve = curve
            self.autoreverses = autoreverses
        }

        /// How long after it starts the animation ends: the delay, and the run (twice, there and
        /// back, when it autoreverses).
        public var endMs: Double { self.delayMs + self.durationMs * (self.autoreverses ? 2 : 1) }
    }

    /// What happened.
    public enum Event: Sendable {
        /// New target values for a layer arrived at `atMs`, animated with `options` or at once.
        case targetReceived(layer: String, values: [Property: SIMD2<Double>], options: Options?, atMs: Double)
        /// A frame is about to be rendered at `atMs`.
        case frameStarted(atMs: Double)
    }

    /// A completion, the fields of a `render.animation` message.
    public struct Completion: Sendable, Hashable {
        public var layer: String
        public var property: Property
        /// True when it ran to the end, false when a new target interrupted it.
        public var finished: Bool
        /// When it ended: the planned end for finished animations, the new target's arrival
        /// for interrupted ones.
        public var atMs: Double
        public var animationID: Int?
        public var durationMs: Double
    }

    /// What the owner must do: publish a completion on `render/animation/`.
    public enum Effect: Sendable, Hashable {
        case publishCompletion(Completion)
    }

    private enum State: Sendable {
        case resting(SIMD2<Double>)
        case moving(from: SIMD2<Double>, to: SIMD2<Double>, startMs: Double, options: Options)
    }

    private struct Key: Hashable, Comparable {
        let layer: String
        let property: Property
        static func < (a: Key, b: Key) -> Bool {
            (a.layer, a.property.rawValue) < (b.layer, b.property.rawValue)
        }
    }

    private var states: [Key: State] = [:]

    public init() {}

    /// Advances the animations and returns the completions to publish.
    public mutating func handle(_ event: Event) -> [Effect] {
        switch event {
        case .targetReceived(let layer, let values, let options, let now):
            var effects: [Effect] = []
            for property in Property.allCases {
                guard let target = values[property], target.x.isFinite, target.y.isFinite else { continue }
                let key = Key(layer: layer, property: property)
                let current = value(key, atMs: now)
                if case .moving(_, _, _, let old) = states[key] {
                    effects.append(completion(key, old, finished: false, atMs: now))
                }
                if let options, options.durationMs > 0 || options.delayMs > 0 {
                    states[key] = .moving(from: current ?? target, to: target, startMs: now, options: options)
                } else {
                    states[key] = .resting(target)
                    if let options { effects.append(completion(key, options, finished: true, atMs: now)) }
                }
            }
            return effects
        case .frameStarted(let now):
            var effects: [Effect] = []
            for key in states.keys.sorted() {
                guard case .moving(_, let to, let start, let options) = states[key], now >= start + options.endMs
                else { continue }
                states[key] = .resting(to)
                effects.append(completion(key, options, finished: true, atMs: start + options.endMs))
            }
            return effects
        }
    }

    /// The value of a layer's property at `atMs`, or nil when it was never set.
    public func value(layer: String, _ property: Property, atMs now: Double) -> SIMD2<Double>? {
        value(Key(layer: layer, property: property), atMs: now)
    }

    /// Where a layer's property is going (or resting), or nil when it was never set.
    public func target(layer: String, _ property: Property) -> SIMD2<Double>? {
        switch states[Key(layer: layer, property: property)] {
        case nil: nil
        case .resting(let value): value
        case .moving(_, let to, _, _): to
        }
    }

    /// Every known property of a layer at `atMs`.
    public func values(layer: String, atMs now: Double) -> [Property: SIMD2<Double>] {
        var result: [Property: SIMD2<Double>] = [:]
        for property in Property.allCases { result[property] = value(layer: layer, property, atMs: now) }
        return result
    }

    /// True while any property is still moving (the worker keeps rendering frames).
    public var isAnimating: Bool {
        states.values.contains { if case .moving = $0 { true } else { false } }
    }

    private func value(_ key: Key, atMs now: Double) -> SIMD2<Double>? {
        switch states[key] {
        case nil: return nil
        case .resting(let value): return value
        case .moving(let from, let to, let start, let options):
            let elapsed = now - start - options.delayMs
            var u = options.durationMs > 0 ? elapsed / options.durationMs : (elapsed >= 0 ? 1 : 0)
            if options.autoreverses {
                // There and back along the same curve; once back, the model value shows.
                guard u < 2 else { return to }
                if u > 1 { u = 2 - u }
            }
            return from + (to - from) * options.curve.progress(u)
        }
    }

    private func completion(_ key: Key, _ options: Options, finished: Bool, atMs: Double) -> Effect {
        .publishCompletion(
            Completion(
                layer: key.layer, property: key.property, finished: finished, atMs: atMs, animationID: options.id,
                durationMs: options.durationMs))
    }
}

extension Layer {
    /// The layer with animated values applied: position (frame origin), size, opacity, and
    /// rotation (radians) and scale as its transform.
    public func applying(_ values: [Animator.Property: SIMD2<Double>]) -> Layer {
        var layer = self
        if let position = values[.position] { layer.frame.origin = Point(position.x, position.y) }
        if let size = values[.size] { layer.frame.size = Size(max(0, size.x), max(0, size.y)) }
        if let opacity = values[.opacity] { layer.opacity = min(max(opacity.x, 0), 1) }
        if values[.rotation] != nil || values[.scale] != nil {
            let s = values[.scale]?.x ?? 1
            layer.transform = AffineTransform.scale(s, s).concatenating(.rotation(values[.rotation]?.x ?? 0))
        }
        return layer
    }
}
