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
        var lastTime = -Double.infinity
        var number = 0
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            guard rawLine.contains(where: { $0 != " " && $0 != "\t" && $0 != "\r" }) else { continue }
            do throws(InputProblem) {
                let line = try Self.line(String(rawLine), lineNumber: number, bounds: bounds)
                guard line.tMs >= lastTime else {
                    throw InputProblem(
                        .timeWentBackwards, line: number, "t_ms \(line.tMs) is earlier than \(lastTime) before it")
                }
                lastTime = line.tMs
                script.lines.append(line)
                script.lineNumbers.append(number)
            } catch {
                script.problems.append(error)
            }
        }
        return script
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
        let width = bounds?.width ?? .infinity
        let height = bounds?.height ?? .infinity
        guard (0...width).contains(x), (0...height).contains(y) else {
            throw InputProblem(.outOfRange, line: lineNumber, "point (\(x), \(y)) lies outside the scene")
        }
        return TouchScriptLine(tMs: tMs, device: device, id: contactID, phase: phase, x: x, y: y)
    }

    /// The latest `t_ms` a frame's time (int64 nanoseconds) can hold, about 292 years.
    static let maximumTMs = Double(Int64.max / 1_000_000)

    /// The script as JSON lines (the inverse of ``parse(_:bounds:)``).
    public var jsonLines: String {
        self.lines.map { $0.value.json + "\n" }.joined()
    }
}
