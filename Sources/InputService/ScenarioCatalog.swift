import BusSchema
import InputCore

/// The synthetic scenarios by name, as `input-source scenario NAME` prints them and
/// `input-source run --scenario NAME` publishes them.
public enum ScenarioCatalog {
    /// Every scenario name, in the order the usage text lists them.
    public static let names = [
        "tap", "double-tap", "long-press", "swipe-left", "swipe-right", "swipe-up", "swipe-down", "pan",
        "pull-down", "pinch-in", "pinch-out", "rotate", "stroke",
    ]

    /// The script lines of scenario `name` on `device`, or nil for an unknown name.
    public static func lines(named name: String, device: String) -> [TouchScriptLine]? {
        let generator = ScenarioGenerator(device: device)
        switch name {
        case "tap": return generator.tap(x: 200, y: 200)
        case "double-tap": return generator.doubleTap(x: 200, y: 200)
        case "long-press": return generator.longPress(x: 200, y: 200)
        case "swipe-left": return generator.swipe(.left, x: 300, y: 200)
        case "swipe-right": return generator.swipe(.right, x: 100, y: 200)
        case "swipe-up": return generator.swipe(.up, x: 200, y: 300)
        case "swipe-down": return generator.swipe(.down, x: 200, y: 100)
        case "pan": return generator.pan(fromX: 100, fromY: 300, toX: 250, toY: 200)
        case "pull-down": return generator.pullDown(x: 200, y: 100)
        case "pinch-in": return generator.pinch(x: 200, y: 200, fromSpan: 200, toSpan: 80)
        case "pinch-out": return generator.pinch(x: 200, y: 200, fromSpan: 80, toSpan: 200)
        case "rotate": return generator.rotate(x: 200, y: 200, radians: Double.pi / 2)
        case "stroke": return generator.stroke([(50, 50), (150, 80), (200, 200), (100, 250)])
        default: return nil
        }
    }
}
