import BusSchema
import InputCore

extension FuzzTarget {
    /// Touch scripts (`.jsonl`): parse, frame and guard, as `input-source convert` does.
    static let touchScript = FuzzTarget(
        "touch.script", dictionary: ["{\"t_ms\":", "\"phase\":", "\"began\"", "\"moved\"", "\"ended\"", "\n", "}"],
        seeds: { data in try data.files(in: "Tests/data/scripts", suffix: ".jsonl").map { try data.bytes($0) } }
    ) { input in
        let converted = OfflineConversion.frames(script: String(decoding: input, as: UTF8.self), bounds: (400, 900))
        return converted.problems.first?.code.rawValue
    }

    /// evemu recordings: the device header (`N:`, `A:` axis lines) and `E:` event lines, decoded to frames.
    static let evemu = FuzzTarget(
        "evemu", dictionary: ["E: ", "A: ", "N: ", "# EVEMU", "0003 0039 ", "0003 002f ", "0000 0000 0\n", "\n"],
        seeds: { data in try Self.recordings(data).map { Array(($0.header + $0.events.joined()).utf8) } }
    ) { input in
        let converted = OfflineConversion.frames(evemu: String(decoding: input, as: UTF8.self), sceneWidth: 400)
        return converted.problems.first?.code.rawValue
    }

    /// Raw `struct input_event` streams through the multitouch decoder, as a protocol B device with
    /// slots and tool types and as a protocol A device.
    static let evdev = FuzzTarget(
        "evdev", maximumLength: 1 << 13,
        seeds: { data in
            try Self.recordings(data).map { recording in
                EvemuRecording.parse(recording.events.joined()).events.flatMap(\.binary)
            }
        }
    ) { input in
        let decoded = input.withUnsafeBytes { InputEvent.decode($0) }
        for description in Self.devices {
            _ = OfflineConversion.frames(
                events: decoded.events, description: description, sceneWidth: 400, sceneHeight: 300)
        }
        return decoded.leftover == 0 ? nil : "partial_record"
    }

    private static let devices = [
        DeviceDescription(
            name: "protocol B",
            axes: [
                EventCode.mtSlot: AxisRange(minimum: 0, maximum: 9),
                EventCode.mtPositionX: AxisRange(minimum: 0, maximum: 799),
                EventCode.mtPositionY: AxisRange(minimum: 0, maximum: 479),
                EventCode.mtToolType: AxisRange(minimum: 0, maximum: 2),
                EventCode.mtTrackingID: AxisRange(minimum: 0, maximum: 65535),
            ]),
        DeviceDescription(
            name: "protocol A",
            axes: [
                EventCode.absX: AxisRange(minimum: 0, maximum: 9600),
                EventCode.absY: AxisRange(minimum: 0, maximum: 7200),
                EventCode.mtPositionX: AxisRange(minimum: 0, maximum: 9600),
                EventCode.mtPositionY: AxisRange(minimum: 0, maximum: 7200),
            ]),
    ]

    /// The test recordings cut into windows of 60 event lines, each with its device's header.
    private static func recordings(_ data: RepositoryData) throws -> [(header: String, events: [String])] {
        try data.files(in: "Tests/data/evemu", suffix: ".events").flatMap { path in
            guard let desc = OfflineConversion.descCandidates(for: path).lazy.compactMap({ try? data.bytes($0) }).first
            else { throw FuzzError("no .desc for \(path)") }
            let header = String(decoding: desc, as: UTF8.self)
            let lines = String(decoding: try data.bytes(path), as: UTF8.self).split(separator: "\n")
            let events = lines.filter { $0.hasPrefix("E: ") }.map { "\($0)\n" }
            return stride(from: 0, to: events.count, by: 60).map { start in
                (header, Array(events[start..<min(start + 60, events.count)]))
            }
        }
    }
}
