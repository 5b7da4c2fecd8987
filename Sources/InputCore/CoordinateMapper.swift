import BusSchema

/// Maps device units to scene points using the device's axis ranges and the scene size.
///
/// The axis minimum maps to 0 and the maximum to the scene's width or height. With no scene
/// size, one device unit is one point (offset by the axis minimum).
public struct CoordinateMapper: Sendable, Hashable {
    private let x: AxisRange
    private let y: AxisRange
    private let pressure: AxisRange?
    private let scaleX: Double
    private let scaleY: Double

    /// - Parameters:
    ///   - description: the device's axes; missing X/Y ranges are taken as 0…scene size.
    ///   - sceneWidth, sceneHeight: the scene size in points, or nil for one point per unit.
    public init(description: DeviceDescription, sceneWidth: Double? = nil, sceneHeight: Double? = nil) {
        let defaultX = AxisRange(minimum: 0, maximum: Int32(clamping: Int(saturating: sceneWidth ?? 65_535)))
        let defaultY = AxisRange(minimum: 0, maximum: Int32(clamping: Int(saturating: sceneHeight ?? 65_535)))
        self.x = description.xRange ?? defaultX
        self.y = description.yRange ?? defaultY
        self.pressure = description.axes[EventCode.mtPressure] ?? description.axes[EventCode.absPressure]
        let spanX = max(1, Double(self.x.maximum) - Double(self.x.minimum))
        let spanY = max(1, Double(self.y.maximum) - Double(self.y.minimum))
        self.scaleX = sceneWidth.map { $0 / spanX } ?? 1
        self.scaleY = sceneHeight.map { $0 / spanY } ?? 1
    }

    // A device may report values far outside the range it declares: positions and sizes are
    // clamped to the ranges every touch.frame decoder accepts, so a frame is never refused.

    /// The X position in points of a device X value.
    public func pointX(_ value: Int32) -> Double {
        NumberRange.coordinate.clamp((Double(value) - Double(self.x.minimum)) * self.scaleX)
    }
    /// The Y position in points of a device Y value.
    public func pointY(_ value: Int32) -> Double {
        NumberRange.coordinate.clamp((Double(value) - Double(self.y.minimum)) * self.scaleY)
    }
    /// A contact size (`ABS_MT_TOUCH_MAJOR`) in points, measured along X.
    public func points(major value: Int32) -> Double { NumberRange.size.clamp(Double(value) * self.scaleX) }
    /// Pressure as a fraction 0…1 of its range, or nil if the device reports none.
    public func pressure(_ value: Int32) -> Double? { self.pressure?.fraction(value) }
}
