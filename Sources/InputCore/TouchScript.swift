import BusSchema

/// A parsed touch script (`.jsonl`, schema `touch.script`): its valid lines and the skipped ones.
public struct TouchScript: Sendable {
    public var lines: [TouchScriptLine]
    /// The 1-based line number in the file of each entry of ``lines``.
    public var lineNumbers: [Int]
    public var problems: [InputProblem]

    public init(lines: [TouchScriptLine] = [], lineNumbers: [Int]? = nil, problems: [InputProblem] = []) {
        self.lines = lines
        self.lineNumbers = lineNumbers ?? lines.indices.map { $0 + 1 }
        self.problems = problems
    }

    /// Parses a script: one JSON object a line, blank lines ignored.
    ///
    /// Each bad line is recorded in ``problems`` with its number and skipped: invalid JSON, a
    /// missing or mistyped field, an unknown phase, a non-finite or negative coordinate (or one
    /// outside `bounds`), a time earlier than the line before.
    /// - Parameter bounds: the scene size in points, when coordinates must lie inside it.
    public static func parse(_ text: String, bounds: (width: Double, height: Double)? = nil) -> TouchScript {
        var script = TouchScript()
        var parser = Parser(bounds: bounds)
        var number = 0
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            do throws(InputProblem) {
                guard let line = try parser.parse(String(rawLine), lineNumber: number) else { continue }
                script.lines.append(line)
                script.lineNumbers.append(number)
            } catch {
                script.problems.append(error)
            }
        }
        return script
    }

    /// Parses a script one line at a time (what ``parse(_:bounds:)`` and a streaming reader share).
    public struct Parser: Sendable {
        private let bounds: (width: Double, height: Double)?
        private var lastTime = -Double.infinity

        /// - Parameter bounds: the scene size in points, when coordinates must lie inside it.
        public init(bounds: (width: Double, height: Double)?) {
            self.bounds = bounds
        }

        /// Line `lineNumber`'s touch, or nil for a blank line.
        ///
        /// - Throws: ``InputProblem`` naming what is wrong with the line; it is then skipped.
        public mutating func parse(_ text: String, lineNumber: Int) throws(InputProblem) -> TouchScriptLine? {
            guard text.utf8.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0d }) else { return nil }
            let line = try TouchScript.line(text, lineNumber: lineNumber, bounds: self.bounds)
            guard line.tMs >= self.lastTime else {
                throw InputProblem(
                    .timeWentBackwards, line: lineNumber, "t_ms \(line.tMs) is earlier than \(self.lastTime) before it")
            }
            self.lastTime = line.tMs
            return line
        }
    }

    private static func line(
        _ text: String, lineNumber: Int, bounds: (width: Double, height: Double)?
    ) throws(InputProblem) -> TouchScriptLine {
        let value: Value
        do {
            value = try JSONReader.parse(text)
        } catch {
            throw InputProblem(.malformed, line: lineNumber, "invalid JSON: \(error)")
        }
        guard value.mapValue != nil else { throw InputProblem(.malformed, line: lineNumber, "not a JSON object") }
        func field(_ name: String) throws(InputProblem) -> Value {
            guard let field = value[name], field != .null else {
                throw InputProblem(.missingField, line: lineNumber, "missing field '\(name)'")
            }
            return field
        }
        func numberField(_ name: String) throws(InputProblem) -> Double {
            guard let double = try field(name).doubleValue else {
                throw InputProblem(.invalidValue, line: lineNumber, "field '\(name)' is not a number")
            }
            guard double.isFinite else {
                throw InputProblem(.outOfRange, line: lineNumber, "field '\(name)' is not finite")
            }
            return double
        }
        guard let device = try field("device").stringValue, !device.isEmpty else {
            throw InputProblem(.invalidValue, line: lineNumber, "field 'device' is not a non-empty string")
        }
        guard let id = try field("id").intValue, let contactID = Int(exactly: id), contactID >= 0 else {
            throw InputProblem(.invalidValue, line: lineNumber, "field 'id' is not an integer ≥ 0")
        }
        guard let rawPhase = try field("phase").stringValue, let phase = TouchScriptLine.Phase(rawValue: rawPhase)
        else {
            throw InputProblem(
                .invalidValue, line: lineNumber,
                "field 'phase' is \(try field("phase").json), not began|moved|ended|cancelled")
        }
        let tMs = try numberField("t_ms")
        guard tMs >= 0 else { throw InputProblem(.outOfRange, line: lineNumber, "t_ms \(tMs) is negative") }
        guard tMs <= Self.maximumTMs else {
            throw InputProblem(
                .outOfRange, line: lineNumber, "t_ms \(tMs) is beyond \(Self.maximumTMs) (frame times are int64 ns)")
        }
        let x = try numberField("x")
        let y = try numberField("y")
        // Without a scene, within the coordinate range every touch frame decoder accepts.
        let width = bounds?.width ?? NumberRange.coordinate.upper
        let height = bounds?.height ?? NumberRange.coordinate.upper
        guard (0...width).contains(x), (0...height).contains(y) else {
            throw InputProblem(.outOfRange, line: lineNumber, "point (\(x), \(y)) lies outside the scene")
        }
        return TouchScriptLine {
            $0.tMs = tMs
            $0.device = device
            $0.id = contactID
            $0.phase = phase
            $0.x = x
            $0.y = y
        }
    }

    /// The latest `t_ms` a frame's time (int64 nanoseconds) can hold, about 292 years.
    static let maximumTMs = Double(Int64.max / 1_000_000)

    /// The script as JSON lines (the inverse of ``parse(_:bounds:)``).
    public var jsonLines: String {
        self.lines.map { $0.value.json + "\n" }.joined()
    }
}
