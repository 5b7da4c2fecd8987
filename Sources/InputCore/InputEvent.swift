import BusSchema

/// One kernel input event (`struct input_event`), with its timestamp.
public struct InputEvent: Sendable, Hashable {
    /// The event time (`input_event.time`), on the device's or the recording's clock.
    public var time: SourceInstant
    public var type: UInt16
    public var code: UInt16
    public var value: Int32

    public init(time: SourceInstant, type: UInt16, code: UInt16, value: Int32) {
        self.time = time
        self.type = type
        self.code = code
        self.value = value
    }
}

/// The event types and codes of `linux/input-event-codes.h` that the touch decoder uses.
public enum EventCode {
    public static let synType: UInt16 = 0x00
    public static let keyType: UInt16 = 0x01
    public static let absType: UInt16 = 0x03

    public static let synReport: UInt16 = 0
    public static let synMTReport: UInt16 = 2
    public static let synDropped: UInt16 = 3

    public static let buttonTouch: UInt16 = 0x14a

    public static let absX: UInt16 = 0x00
    public static let absY: UInt16 = 0x01
    public static let absPressure: UInt16 = 0x18
    public static let mtSlot: UInt16 = 0x2f
    public static let mtTouchMajor: UInt16 = 0x30
    public static let mtPositionX: UInt16 = 0x35
    public static let mtPositionY: UInt16 = 0x36
    public static let mtToolType: UInt16 = 0x37
    public static let mtTrackingID: UInt16 = 0x39
    public static let mtPressure: UInt16 = 0x3a

    /// `ABS_MT_TOOL_TYPE` values.
    public static let toolFinger: Int32 = 0
    public static let toolPen: Int32 = 1
    public static let toolPalm: Int32 = 2
}
