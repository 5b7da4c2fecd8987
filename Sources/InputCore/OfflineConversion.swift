import BusSchema

/// The offline path from a recording or a script to touch frames (what `input-source convert`
/// prints and `gesture-recognizer replay` consumes): parse, decode or frame, then the stuck-touch
/// guard, whose pending cancellations are flushed at the end so every contact ends.
public enum OfflineConversion {
    /// Frames from an evemu recording; `descText` supplies the axes when the events file has none.
    public static func frames(
        evemu eventsText: String, desc descText: String? = nil, device: String = "d0", sceneWidth: Double? = nil,
        sceneHeight: Double? = nil
    ) -> (frames: [TouchFrame], problems: [InputProblem]) {
        let desc = descText.map { EvemuRecording.parse($0) }
        var recording = EvemuRecording.parse(eventsText, description: desc?.description)
        let problems = (desc?.problems ?? []) + recording.problems
        if let desc, !recording.hasDescription { recording.description = desc.description }
        let frames = Self.frames(
            events: recording.events, description: recording.description, device: device, sceneWidth: sceneWidth,
            sceneHeight: sceneHeight)
        return (frames, problems)
    }

    /// Frames from decoded events, e.g. a raw `struct input_event` capture of `/dev/input/eventN`
    /// (see ``InputEvent/decode(_:)``) with the device's axes.
    public static func frames(
        events: [InputEvent], description: DeviceDescription, device: String = "d0", sceneWidth: Double? = nil,
        sceneHeight: Double? = nil
    ) -> [TouchFrame] {
        var decoder = MultitouchDecoder(
            device: device, description: description,
            mapper: CoordinateMapper(description: description, sceneWidth: sceneWidth, sceneHeight: sceneHeight))
        return Self.guarded(events.compactMap { decoder.handle(.eventRead($0)) })
    }

    /// Frames from a touch script (`.jsonl`); `bounds` rejects points outside the scene.
    public static func frames(
        script text: String, bounds: (width: Double, height: Double)? = nil
    ) -> (frames: [TouchFrame], problems: [InputProblem]) {
        let script = TouchScript.parse(text, bounds: bounds)
        let framed = TouchScriptFramer.frames(for: script)
        let problems = (script.problems + framed.problems).sorted { $0.line < $1.line }
        return (Self.guarded(framed.frames), problems)
    }

    /// The stuck-touch guard's timeout offline.
    public static let stuckTimeout = Duration.seconds(10)

    /// Runs frames through a ``StuckTouchGuard`` and flushes it at the end.
    public static func guarded(_ frames: [TouchFrame], timeout: Duration = stuckTimeout) -> [TouchFrame] {
        var guardian = StuckTouchGuard(timeout: timeout)
        var output: [TouchFrame] = []
        output.reserveCapacity(frames.count)
        for frame in frames {
            for case .publish(let frame) in guardian.handle(.frameArrived(frame)) { output.append(frame) }
        }
        return output + guardian.flush()
    }

    /// Where the `.desc` of an evemu `.events` file may be, nearest first: `Dev.gesture.events` →
    /// `Dev.gesture.desc`, `Dev.desc` (the recordings share one description per device).
    public static func descCandidates(for eventsPath: String) -> [String] {
        guard eventsPath.hasSuffix(".events") else { return [] }
        var candidates: [String] = []
        var stem = Substring(eventsPath.dropLast(".events".count))
        while true {
            candidates.append(stem + ".desc")
            guard let dot = stem.lastIndex(of: "."), !stem[dot...].contains("/") else { return candidates }
            stem = stem[..<dot]
        }
    }
}
