import BusSchema

/// An evemu recording (`.desc` header lines and/or `.events` lines) as parsed.
///
/// Format (`whot/evemu`): `N: name`, `I: bus vendor product version`, `P:`/`B:`/`L:`/`S:` bit
/// masks, `A: code min max fuzz flat [resolution]` (code in hex), `E: sec.usec type code value`
/// (type and code in hex, value in decimal), and `#` comments anywhere, also after an event.
public struct EvemuRecording: Sendable {
    public var description: DeviceDescription
    /// Whether any `N:` or `A:` line was seen (a bare `.events` file has none).
    public var hasDescription: Bool
    public var events: [InputEvent]
    /// Lines that were skipped, with their numbers.
    public var problems: [InputProblem]

    public init(
        description: DeviceDescription = DeviceDescription(), hasDescription: Bool = false,
        events: [InputEvent] = [], problems: [InputProblem] = []
    ) {
        self.description = description
        self.hasDescription = hasDescription
        self.events = events
        self.problems = problems
    }

    /// Parses an evemu text; bad lines are recorded in ``problems`` and skipped, never fatal.
    ///
    /// - Parameter description: the device's axes from a separate `.desc`; absolute values outside
    ///   their ranges (or the ranges of the text's own `A:` lines) are reported as out of range.
    public static func parse(_ text: String, description: DeviceDescription? = nil) -> EvemuRecording {
        var parser = Parser(description: description)
        var events: [InputEvent] = []
        var problems: [InputProblem] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            switch parser.add(line, number: index + 1) {
            case .event(let event): events.append(event)
            case .problem(let problem): problems.append(problem)
            case nil: break
            }
        }
        var recording = parser.recording
        recording.events = events
        recording.problems = problems
        return recording
    }

    /// Parses an evemu text a line at a time, for a recording read as a stream: the header lines
    /// build ``recording``'s description, and each event line's event is handed back, not kept.
    public struct Parser: Sendable {
        /// The description (and whether the text has one) from the lines so far; no events or problems.
        public private(set) var recording = EvemuRecording()
        private let description: DeviceDescription?
        private var lastTime = SourceInstant(nanoseconds: .min)

        /// What one line was.
        public enum Item: Sendable {
            case event(InputEvent)
            /// The line was skipped, for this reason.
            case problem(InputProblem)
        }

        /// - Parameter description: the axes from a separate `.desc`, which events are checked against.
        public init(description: DeviceDescription? = nil) {
            self.description = description
        }

        /// Takes in line `number` (from 1): its event, why it was skipped, or nil for a header,
        /// comment or empty line.
        public mutating func add(_ rawLine: Substring, number: Int) -> Item? {
            var line = rawLine
            if let hash = line.firstIndex(of: "#") { line = line[..<hash] }
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
            guard let prefix = fields.first else { return nil }
            switch prefix {
            case "N:":
                self.recording.description.name = line.dropFirst(2).trimmingSpaces()
                self.recording.hasDescription = true
            case "I:", "P:", "B:", "L:", "S:":
                break
            case "A:":
                do throws(InputProblem) {
                    let (code, range) = try EvemuRecording.axis(fields, line: number)
                    self.recording.description.axes[code] = range
                    self.recording.hasDescription = true
                } catch {
                    return .problem(error)
                }
            case "E:":
                do throws(InputProblem) {
                    let event = try EvemuRecording.event(fields, line: number)
                    try EvemuRecording.checkRange(event, self.description ?? self.recording.description, line: number)
                    guard event.time >= self.lastTime else {
                        throw InputProblem(
                            .timeWentBackwards, line: number, "event time \(fields[1]) is earlier than the one before")
                    }
                    self.lastTime = event.time
                    return .event(event)
                } catch {
                    return .problem(error)
                }
            default:
                return .problem(InputProblem(.malformed, line: number, "unknown line prefix '\(prefix)'"))
            }
            return nil
        }
    }

    private static func axis(_ fields: [Substring], line: Int) throws(InputProblem) -> (UInt16, AxisRange) {
        guard fields.count >= 6 else { throw InputProblem(.malformed, line: line, "A: needs code min max fuzz flat") }
        guard let code = UInt16(fields[1], radix: 16) else {
            throw InputProblem(.invalidValue, line: line, "axis code '\(fields[1])' is not hex")
        }
        var numbers: [Int32] = []
        for field in fields[2...] {
            guard let number = Int32(field) else {
                throw InputProblem(.invalidValue, line: line, "axis value '\(field)' is not an integer")
            }
            numbers.append(number)
        }
        let range = AxisRange(
            minimum: numbers[0], maximum: numbers[1], fuzz: numbers[2], flat: numbers[3],
            resolution: numbers.count > 4 ? numbers[4] : 0)
        return (code, range)
    }

    /// Rejects an absolute value outside its axis range (a lift's tracking id −1 is in range).
    private static func checkRange(
        _ event: InputEvent, _ description: DeviceDescription, line: Int
    ) throws(InputProblem) {
        guard event.type == EventCode.absType, let range = description.axes[event.code] else { return }
        if event.code == EventCode.mtTrackingID, event.value == -1 { return }
        guard event.value >= range.minimum, event.value <= range.maximum else {
            throw InputProblem(
                .outOfRange, line: line,
                "axis 0x\(String(event.code, radix: 16)) value \(event.value) is outside \(range.minimum)…\(range.maximum)"
            )
        }
    }

    private static func event(_ fields: [Substring], line: Int) throws(InputProblem) -> InputEvent {
        guard fields.count == 5 else { throw InputProblem(.malformed, line: line, "E: needs time type code value") }
        let time = fields[1].split(separator: ".", omittingEmptySubsequences: false)
        guard time.count == 2, let seconds = Int64(time[0]), let micros = Int64(time[1]), seconds >= 0,
            (0..<1_000_000).contains(micros), seconds < Int64.max / 1_000_000_000 - 1
        else { throw InputProblem(.invalidValue, line: line, "event time '\(fields[1])' is not sec.usec") }
        guard let type = UInt16(fields[2], radix: 16) else {
            throw InputProblem(.invalidValue, line: line, "event type '\(fields[2])' is not hex")
        }
        guard let code = UInt16(fields[3], radix: 16) else {
            throw InputProblem(.invalidValue, line: line, "event code '\(fields[3])' is not hex")
        }
        guard let value = Int32(fields[4]) else {
            throw InputProblem(.invalidValue, line: line, "event value '\(fields[4])' is not an integer")
        }
        return InputEvent(
            time: SourceInstant(nanoseconds: seconds * 1_000_000_000 + micros * 1000), type: type, code: code,
            value: value)
    }
}

extension Substring {
    fileprivate func trimmingSpaces() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let start = self.firstIndex(where: { !isSpace($0) }) else { return "" }
        let end = self.lastIndex(where: { !isSpace($0) })!
        return String(self[start...end])
    }
}
