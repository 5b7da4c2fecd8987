import BusSchema
import InputCore
import Testing

/// Single-touch devices (resistive screens, old pads): `ABS_X`/`ABS_Y` and `BTN_TOUCH`, no
/// `ABS_MT_*` axes. They must come out as one contact per touch, like a one-finger multitouch device.
@Suite struct SingleTouchDecoderTests {
    static let description = DeviceDescription(
        name: "resistive",
        axes: [
            EventCode.absX: AxisRange(minimum: 0, maximum: 4000),
            EventCode.absY: AxisRange(minimum: 0, maximum: 3000),
            EventCode.absPressure: AxisRange(minimum: 0, maximum: 200),
        ])

    static func abs(_ ms: Int64, _ code: UInt16, _ value: Int32) -> InputEvent {
        InputEvent(time: SourceInstant(nanoseconds: ms * 1_000_000), type: EventCode.absType, code: code, value: value)
    }

    static func touch(_ ms: Int64, _ down: Bool) -> InputEvent {
        InputEvent(
            time: SourceInstant(nanoseconds: ms * 1_000_000), type: EventCode.keyType, code: EventCode.buttonTouch,
            value: down ? 1 : 0)
    }

    static func report(_ ms: Int64) -> InputEvent {
        InputEvent(
            time: SourceInstant(nanoseconds: ms * 1_000_000), type: EventCode.synType, code: EventCode.synReport,
            value: 0)
    }

    static func decode(_ events: [InputEvent], description: DeviceDescription = Self.description) -> [TouchFrame] {
        var decoder = MultitouchDecoder(
            device: "st", description: description,
            mapper: CoordinateMapper(description: description, sceneWidth: 800, sceneHeight: 600))
        return events.compactMap { decoder.handle(.eventRead($0)) }
    }

    @Test func eachTouchIsOneContactWithItsOwnIdAndValuesKeptBetweenReports() {
        let frames = Self.decode([
            Self.touch(0, true), Self.abs(0, EventCode.absX, 1000), Self.abs(0, EventCode.absY, 1500),
            Self.abs(0, EventCode.absPressure, 100), Self.report(0),
            Self.abs(10, EventCode.absX, 2000), Self.report(10),
            Self.report(20),
            Self.touch(30, false), Self.report(30),
            // The second touch sends only X: Y is the last value reported.
            Self.touch(100, true), Self.abs(100, EventCode.absX, 4000), Self.report(100),
            Self.touch(150, false), Self.report(150),
        ])
        #expect(
            frames.map { $0.contacts.map(\.phase) } == [
                [.began], [.moved], [.stationary], [.ended], [.began], [.ended],
            ])
        #expect(frames.map { $0.contacts.map(\.id) } == [[0], [0], [0], [0], [1], [1]])
        #expect(frames.map { $0.contacts.map(\.x) } == [[200], [400], [400], [400], [800], [800]])
        #expect(frames.map { $0.contacts.map(\.y) } == [[300], [300], [300], [300], [300], [300]])
        #expect(frames.first?.contacts.first?.pressure == 0.5)
        #expect(frames.map(\.tNs) == [0, 10, 20, 30, 100, 150].map { $0 * 1_000_000 })
    }

    @Test func withoutADescriptionTheEventsAloneMakeItSingleTouch() {
        let frames = Self.decode(
            [
                Self.touch(0, true), Self.abs(0, EventCode.absX, 5), Self.report(0), Self.touch(9, false),
                Self.report(9),
            ],
            description: DeviceDescription())
        #expect(frames.map { $0.contacts.map(\.phase) } == [[.began], [.ended]])
    }

    @Test func aMultitouchDeviceSingleTouchEmulationAddsNoSecondContact() {
        // Multitouch devices send ABS_X/BTN_TOUCH as well; with no description to say so, the first
        // ABS_MT_* event decides.
        let frames = Self.decode(
            [
                Self.abs(0, EventCode.mtSlot, 0), Self.abs(0, EventCode.mtTrackingID, 42),
                Self.abs(0, EventCode.mtPositionX, 10), Self.abs(0, EventCode.mtPositionY, 20),
                Self.touch(0, true), Self.abs(0, EventCode.absX, 10), Self.abs(0, EventCode.absY, 20), Self.report(0),
                Self.abs(5, EventCode.mtTrackingID, -1), Self.touch(5, false), Self.report(5),
            ], description: DeviceDescription())
        #expect(frames.map { $0.contacts.map(\.id) } == [[42], [42]])
        #expect(frames.map { $0.contacts.map(\.phase) } == [[.began], [.ended]])
    }

    @Test func droppedEventsCancelTheTouchWhichStaysIgnoredUntilItLifts() {
        let dropped = InputEvent(
            time: SourceInstant(nanoseconds: 10_000_000), type: EventCode.synType, code: EventCode.synDropped, value: 0)
        let frames = Self.decode([
            Self.touch(0, true), Self.abs(0, EventCode.absX, 1000), Self.report(0),
            dropped, Self.abs(10, EventCode.absX, 3000), Self.report(10),
            Self.abs(20, EventCode.absX, 3100), Self.report(20),
            Self.touch(30, false), Self.report(30),
            Self.touch(40, true), Self.report(40),
        ])
        #expect(frames.map { $0.contacts.map(\.phase) } == [[.began], [.cancelled], [.began]])
        #expect(frames.map { $0.contacts.map(\.id) } == [[0], [0], [1]])
    }

    @Test func removalCancelsTheTouchDown() {
        var decoder = MultitouchDecoder(
            device: "st", description: Self.description, mapper: CoordinateMapper(description: Self.description))
        _ = decoder.handle(.eventRead(Self.touch(0, true)))
        #expect(decoder.handle(.eventRead(Self.report(0)))?.contacts.map(\.phase) == [.began])
        #expect(
            decoder.handle(.deviceRemoved(at: SourceInstant(nanoseconds: 5)))?.contacts.map(\.phase) == [.cancelled])
        #expect(decoder.handle(.deviceRemoved(at: SourceInstant(nanoseconds: 6))) == nil)
    }
}
