import BusSchema

#if canImport(Glibc)
    import Glibc
#endif

/// Synthetic touch scripts for the standard gestures, sampled every ``stepMs``.
///
/// Every scenario starts at `t0` (ms) and ends with every contact lifted; positions are in points.
/// Multi-finger scenarios give their contacts consecutive ids from `id`.
public struct ScenarioGenerator: Sendable {
    /// A swipe or scroll direction in scene coordinates (+y is down).
    public enum Direction: String, Sendable, Hashable, CaseIterable {
        case left, right, up, down

        var unit: (x: Double, y: Double) {
            switch self {
            case .left: return (-1, 0)
            case .right: return (1, 0)
            case .up: return (0, -1)
            case .down: return (0, 1)
            }
        }
    }

    public var device: String
    /// The sampling interval in milliseconds (8 ms ≈ a 120 Hz panel).
    public var stepMs: Double

    public init(device: String = "d0", stepMs: Double = 8) {
        self.device = device
        self.stepMs = stepMs
    }

    /// One finger down and up without moving.
    public func tap(x: Double, y: Double, t0: Double = 0, holdMs: Double = 80, id: Int = 0) -> [TouchScriptLine] {
        self.motion(ids: 1, firstID: id, t0: t0, durationMs: holdMs) { _ in [(x, y)] }
    }

    /// Two taps `gapMs` apart (lift to land).
    public func doubleTap(
        x: Double, y: Double, t0: Double = 0, holdMs: Double = 80, gapMs: Double = 120, id: Int = 0
    ) -> [TouchScriptLine] {
        self.tap(x: x, y: y, t0: t0, holdMs: holdMs, id: id)
            + self.tap(x: x, y: y, t0: t0 + holdMs + gapMs, holdMs: holdMs, id: id + 1)
    }

    /// One finger held still for `holdMs` (a still finger sends nothing until it lifts).
    public func longPress(x: Double, y: Double, t0: Double = 0, holdMs: Double = 700, id: Int = 0) -> [TouchScriptLine]
    {
        self.motion(ids: 1, firstID: id, t0: t0, durationMs: holdMs) { _ in [(x, y)] }
    }

    /// A quick straight flick of `distance` points in `durationMs`.
    public func swipe(
        _ direction: Direction, x: Double, y: Double, distance: Double = 200, durationMs: Double = 120,
        t0: Double = 0, id: Int = 0
    ) -> [TouchScriptLine] {
        let unit = direction.unit
        return self.stroke(
            [(x, y), (x + unit.x * distance, y + unit.y * distance)], durationMs: durationMs, t0: t0, id: id)
    }

    /// A steady drag from one point to another.
    public func pan(
        fromX: Double, fromY: Double, toX: Double, toY: Double, durationMs: Double = 500, t0: Double = 0, id: Int = 0
    ) -> [TouchScriptLine] {
        self.stroke([(fromX, fromY), (toX, toY)], durationMs: durationMs, t0: t0, id: id)
    }

    /// A slow drag downwards, then a pause before lifting (pull-to-refresh).
    public func pullDown(
        x: Double, y: Double, distance: Double = 150, durationMs: Double = 600, t0: Double = 0, id: Int = 0
    ) -> [TouchScriptLine] {
        var lines = self.pan(fromX: x, fromY: y, toX: x, toY: y + distance, durationMs: durationMs, t0: t0, id: id)
        // Hold at the bottom for 100 ms: the lift carries no fling velocity.
        let lift = lines.removeLast()
        lines.append(
            TouchScriptLine {
                $0.tMs = lift.tMs + 100
                $0.device = lift.device
                $0.id = id
                $0.phase = .ended
                $0.x = lift.x
                $0.y = lift.y
            })
        return lines
    }

    /// Two fingers on a horizontal line through the centre, their span going from `fromSpan` to `toSpan`.
    public func pinch(
        x: Double, y: Double, fromSpan: Double, toSpan: Double, durationMs: Double = 400, t0: Double = 0, id: Int = 0
    ) -> [TouchScriptLine] {
        self.motion(ids: 2, firstID: id, t0: t0, durationMs: durationMs) { fraction in
            let half = (fromSpan + (toSpan - fromSpan) * fraction) / 2
            return [(x - half, y), (x + half, y)]
        }
    }

    /// Two fingers `radius` from the centre, turning by `radians` (positive turns +x toward +y).
    public func rotate(
        x: Double, y: Double, radius: Double = 80, radians: Double, durationMs: Double = 400, t0: Double = 0,
        id: Int = 0
    ) -> [TouchScriptLine] {
        self.motion(ids: 2, firstID: id, t0: t0, durationMs: durationMs) { fraction in
            let angle = radians * fraction
            let dx = radius * cos(angle)
            let dy = radius * sin(angle)
            return [(x - dx, y - dy), (x + dx, y + dy)]
        }
    }

    /// One finger drawn through `points` at constant speed.
    public func stroke(
        _ points: [(Double, Double)], durationMs: Double = 500, t0: Double = 0, id: Int = 0
    ) -> [TouchScriptLine] {
        let lengths = zip(points, points.dropFirst()).map { hypot($1.0 - $0.0, $1.1 - $0.1) }
        let total = lengths.reduce(0, +)
        return self.motion(ids: 1, firstID: id, t0: t0, durationMs: durationMs) { fraction in
            var remaining = fraction * total
            for (index, length) in lengths.enumerated() {
                if remaining <= length, length > 0 {
                    let t = remaining / length
                    let (a, b) = (points[index], points[index + 1])
                    return [(a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t)]
                }
                remaining -= length
            }
            return [points.last ?? (0, 0)]
        }
    }

    /// Contacts that land at `t0`, follow `position(fraction)` every step (a line only when a
    /// contact moved) and lift at `t0 + durationMs`.
    private func motion(
        ids: Int, firstID: Int, t0: Double, durationMs: Double, position: (Double) -> [(Double, Double)]
    ) -> [TouchScriptLine] {
        var lines: [TouchScriptLine] = []
        var last: [(Double, Double)] = []
        func emit(_ t: Double, _ phase: TouchScriptLine.Phase, _ fraction: Double) {
            let points = position(fraction)
            for (offset, point) in points.enumerated() where offset < ids {
                if phase == .moved, offset < last.count, last[offset] == point { continue }
                lines.append(
                    TouchScriptLine {
                        $0.tMs = (t * 1000).rounded() / 1000
                        $0.device = self.device
                        $0.id = firstID + offset
                        $0.phase = phase
                        $0.x = point.0
                        $0.y = point.1
                    })
            }
            last = points
        }
        emit(t0, .began, 0)
        let steps = Int((durationMs / self.stepMs).rounded(.up))
        for step in 1..<max(steps, 1) {
            let t = Double(step) * self.stepMs
            emit(t0 + t, .moved, t / durationMs)
        }
        emit(t0 + durationMs, .ended, 1)
        return lines
    }
}
