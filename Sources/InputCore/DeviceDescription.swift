/// The range of one absolute axis, as `EVIOCGABS` (`struct input_absinfo`) or an evemu `A:` line gives it.
public struct AxisRange: Sendable, Hashable {
    public var minimum: Int32
    public var maximum: Int32
    public var fuzz: Int32
    public var flat: Int32
    /// Units per millimetre; 0 when unknown.
    public var resolution: Int32

    public init(minimum: Int32, maximum: Int32, fuzz: Int32 = 0, flat: Int32 = 0, resolution: Int32 = 0) {
        self.minimum = minimum
        self.maximum = maximum
        self.fuzz = fuzz
        self.flat = flat
        self.resolution = resolution
    }

    /// `value` as a fraction of the range: 0 at the minimum, 1 at the maximum.
    func fraction(_ value: Int32) -> Double {
        let span = Double(self.maximum) - Double(self.minimum)
        return span > 0 ? (Double(value) - Double(self.minimum)) / span : 0
    }
}

/// What the touch decoder needs to know about a device: its name and absolute axes.
public struct DeviceDescription: Sendable, Hashable {
    public var name: String
    /// Absolute axes by `ABS_*` code.
    public var axes: [UInt16: AxisRange]

    public init(name: String = "", axes: [UInt16: AxisRange] = [:]) {
        self.name = name
        self.axes = axes
    }

    /// The multitouch X range (falling back to `ABS_X`), if the device reports one.
    public var xRange: AxisRange? { self.axes[EventCode.mtPositionX] ?? self.axes[EventCode.absX] }
    /// The multitouch Y range (falling back to `ABS_Y`), if the device reports one.
    public var yRange: AxisRange? { self.axes[EventCode.mtPositionY] ?? self.axes[EventCode.absY] }
    /// The number of slots (`ABS_MT_SLOT` maximum + 1), if the device has slots.
    public var slotCount: Int? { self.axes[EventCode.mtSlot].map { Int($0.maximum) + 1 } }
}
