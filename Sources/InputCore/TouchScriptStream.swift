import BusSchema

/// A touch script converted a line at a time: each line parsed (``TouchScript/Parser``),
/// framed (``TouchScriptFramer``) and passed through the stuck-touch guard, so a tool streams
/// frames out as lines come in and holds only the contacts that are down, never the file.
/// ``OfflineConversion/frames(script:bounds:)`` gives the same frames for a whole text.
public struct TouchScriptStream: Sendable {
    private var parser: TouchScript.Parser
    private var framer = TouchScriptFramer()
    private var guardian: StuckTouchGuard

    /// - Parameters:
    ///   - bounds: the scene size in points, when coordinates must lie inside it.
    ///   - timeout: the stuck-touch guard's timeout.
    public init(bounds: (width: Double, height: Double)?, timeout: Duration = OfflineConversion.stuckTimeout) {
        self.parser = TouchScript.Parser(bounds: bounds)
        self.guardian = StuckTouchGuard(timeout: timeout)
    }

    /// Adds line `lineNumber`; returns the frames it completed and, if it was skipped, why.
    public mutating func add(_ text: String, lineNumber: Int) -> (frames: [TouchFrame], problem: InputProblem?) {
        let line: TouchScriptLine
        do throws(InputProblem) {
            guard let parsed = try self.parser.parse(text, lineNumber: lineNumber) else { return ([], nil) }
            line = parsed
        } catch {
            return ([], error)
        }
        let added = self.framer.add(line, lineNumber: lineNumber)
        return (self.guarded(added.frames), added.problem)
    }

    /// The frames still pending at the end of the script, every contact ended.
    public mutating func finish() -> [TouchFrame] {
        self.guarded(self.framer.finish()) + self.guardian.flush()
    }

    private mutating func guarded(_ frames: [TouchFrame]) -> [TouchFrame] {
        var output: [TouchFrame] = []
        for frame in frames {
            for case .publish(let frame) in self.guardian.handle(.frameArrived(frame)) { output.append(frame) }
        }
        return output
    }
}
