import BusSchema
import InputCore

/// Touch frames from files, without the stuck-touch guard (the live service runs its own on a
/// timer, with its own timeout).
public enum SourceFiles {
    /// Frames of a touch script; `bounds` rejects points outside the scene.
    public static func frames(
        script text: String, bounds: (width: Double, height: Double)?
    ) -> (frames: [TouchFrame], problems: [InputProblem]) {
        let script = TouchScript.parse(text, bounds: bounds)
        let framed = TouchScriptFramer.frames(for: script)
        return (framed.frames, (script.problems + framed.problems).sorted { $0.line < $1.line })
    }

    /// Frames of an evemu recording; `descText` supplies the axes when the events file has none.
    public static func frames(
        evemu eventsText: String, desc descText: String?, device: String, sceneWidth: Double?, sceneHeight: Double?
    ) -> (frames: [TouchFrame], problems: [InputProblem]) {
        let desc = descText.map { EvemuRecording.parse($0) }
        var recording = EvemuRecording.parse(eventsText, description: desc?.description)
        if let desc, !recording.hasDescription { recording.description = desc.description }
        var decoder = MultitouchDecoder(
            device: device, description: recording.description,
            mapper: CoordinateMapper(
                description: recording.description, sceneWidth: sceneWidth, sceneHeight: sceneHeight))
        let frames = recording.events.compactMap { decoder.handle(.eventRead($0)) }
        return (frames, (desc?.problems ?? []) + recording.problems)
    }
}
