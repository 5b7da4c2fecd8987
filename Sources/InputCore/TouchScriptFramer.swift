import BusSchema

/// Groups touch-script lines into ``TouchFrame``s: one frame per device per instant, holding every
/// live contact of that device (the ones without a line at that instant are `stationary`).
///
/// Lines that make no sense for the contact (moved or ended before began, began twice) are
/// reported as ``InputProblem/Code/unknownTouch`` with their line number and skipped.
public struct TouchScriptFramer: Sendable {
    private struct DeviceState: Sendable {
        var frame: UInt64 = 0
        var live: [TouchContact] = []
    }

    private var devices: [String: DeviceState] = [:]
    /// The frame being assembled: its time and device, and the contact ids already in it.
    private var pending: (tMs: Double, device: String, changed: Set<Int>, contacts: [TouchContact])?

    public init() {}

    /// Frames for a whole script, in order, with the problems found on the way.
    public static func frames(for script: TouchScript) -> (frames: [TouchFrame], problems: [InputProblem]) {
        var framer = TouchScriptFramer()
        var frames: [TouchFrame] = []
        var problems: [InputProblem] = []
        for (line, number) in zip(script.lines, script.lineNumbers) {
            let added = framer.add(line, lineNumber: number)
            frames.append(contentsOf: added.frames)
            if let problem = added.problem { problems.append(problem) }
        }
        frames.append(contentsOf: framer.finish())
        return (frames, problems)
    }

    /// Adds a line; returns the frames it completed (lines for another instant or device close a
    /// frame) and, if the line was skipped, why.
    public mutating func add(
        _ line: TouchScriptLine, lineNumber: Int
    ) -> (frames: [TouchFrame], problem: InputProblem?) {
        var completed: [TouchFrame] = []
        if let pending = self.pending,
            pending.tMs != line.tMs || pending.device != line.device || pending.changed.contains(line.id)
        {
            completed.append(contentsOf: self.finish())
        }
        var contacts = self.pending?.contacts ?? self.devices[line.device]?.live ?? []
        let index = contacts.firstIndex { $0.id == line.id }
        switch (line.phase, index) {
        case (.began, nil):
            contacts.append(
                TouchContact {
                    $0.id = line.id
                    $0.phase = .began
                    $0.x = line.x
                    $0.y = line.y
                })
        case (.began, .some):
            return (completed, InputProblem(.unknownTouch, line: lineNumber, "id \(line.id) began while already down"))
        case (_, nil):
            let problem = InputProblem(
                .unknownTouch, line: lineNumber, "id \(line.id) \(line.phase.rawValue) without began")
            return (completed, problem)
        case (let phase, let index?):
            let contactPhase: TouchContact.Phase = phase == .moved ? .moved : (phase == .ended ? .ended : .cancelled)
            contacts[index] = TouchContact {
                $0.id = line.id
                $0.phase = contactPhase
                $0.x = line.x
                $0.y = line.y
            }
        }
        if self.pending == nil { self.pending = (line.tMs, line.device, [], []) }
        self.pending!.contacts = contacts
        self.pending!.changed.insert(line.id)
        return (completed, nil)
    }

    /// Closes the frame being assembled, if any.
    public mutating func finish() -> [TouchFrame] {
        guard let pending = self.pending else { return [] }
        self.pending = nil
        var state = self.devices[pending.device] ?? DeviceState()
        var contacts = pending.contacts
        for index in contacts.indices where !pending.changed.contains(contacts[index].id) {
            contacts[index].phase = .stationary
        }
        state.live = contacts.filter { $0.phase != .ended && $0.phase != .cancelled }
        state.frame += 1
        self.devices[pending.device] = state
        let tNs = Int64((pending.tMs * 1_000_000).rounded())
        return [
            TouchFrame {
                $0.device = pending.device
                $0.frame = state.frame
                $0.tNs = tNs
                $0.contacts = contacts
            }
        ]
    }
}
