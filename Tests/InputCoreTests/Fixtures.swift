import BusSchema
import Foundation
import InputCore

/// The real evemu recordings in `Tests/data/evemu` (from `whot/evemu-devices`, MIT).
enum Fixtures {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("data")

    static func text(_ relativePath: String) -> String {
        let data = FileManager.default.contents(atPath: Self.directory.appendingPathComponent(relativePath).path)
        return String(decoding: data ?? Data(), as: UTF8.self)
    }

    static let recordings = [
        "Atmel_maXTouch_Touchscreen.1-finger-drag-up-down",
        "Atmel_maXTouch_Touchscreen.1-finger-fast-taps",
        "Atmel_maXTouch_Touchscreen.2-fingers-touch-release",
        "EP0430M09.2-finger-scroll-down",
        "EP0430M09.2-fingers-touch-release",
        "EP0430M09.4-finger-drag-down",
        "N-Trig_MultiTouch.1-finger-drag-NW-SE",
    ]

    /// A recording's events with the device description from its `.desc`.
    static func recording(_ name: String) -> EvemuRecording {
        var recording = EvemuRecording.parse(Self.text("evemu/\(name).events"))
        let device = String(name[..<name.firstIndex(of: ".")!])
        recording.description = EvemuRecording.parse(Self.text("evemu/\(device).desc")).description
        return recording
    }

    /// The frames a recording decodes to, in device units unless a scene size is given.
    static func frames(_ name: String, width: Double? = nil, height: Double? = nil) -> [TouchFrame] {
        let recording = Self.recording(name)
        var decoder = MultitouchDecoder(
            device: "d0", description: recording.description,
            mapper: CoordinateMapper(description: recording.description, sceneWidth: width, sceneHeight: height))
        return recording.events.compactMap { decoder.handle(.eventRead($0)) }
    }

    /// Frames decoded from hand-made events, each `(type, code, value)` at the given millisecond.
    static func decode(
        _ events: [(ms: Int64, type: UInt16, code: UInt16, value: Int32)],
        description: DeviceDescription = Self.smallScreen
    ) -> [TouchFrame] {
        var decoder = MultitouchDecoder(
            device: "d0", description: description, mapper: CoordinateMapper(description: description))
        return events.compactMap {
            decoder.handle(
                .eventRead(
                    InputEvent(
                        time: SourceInstant(nanoseconds: $0.ms * 1_000_000), type: $0.type, code: $0.code,
                        value: $0.value)))
        }
    }

    static let smallScreen = DeviceDescription(
        name: "test",
        axes: [
            EventCode.mtSlot: AxisRange(minimum: 0, maximum: 4),
            EventCode.mtPositionX: AxisRange(minimum: 0, maximum: 1000),
            EventCode.mtPositionY: AxisRange(minimum: 0, maximum: 1000),
            EventCode.mtToolType: AxisRange(minimum: 0, maximum: 2),
        ])
}

/// Shorthands for hand-made event sequences.
let evAbs = EventCode.absType
let evSyn = EventCode.synType
let slot = EventCode.mtSlot
let trackingID = EventCode.mtTrackingID
let posX = EventCode.mtPositionX
let posY = EventCode.mtPositionY
let report = EventCode.synReport
