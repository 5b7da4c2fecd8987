import BusSchema
import InputCore
import Testing

/// What a device or a script can say that no decoder downstream would accept is bounded here,
/// where it enters: frames always decode.
@Suite struct HostileInputTests {
    @Test func deviceValuesFarOutsideTheirDeclaredRange_mapInsideTheCoordinateRange() throws {
        let mapper = CoordinateMapper(description: DeviceDescription(), sceneWidth: 16384, sceneHeight: 16384)
        for value in [Int32.min, -1, Int32.max] {
            #expect(NumberRange.coordinate.contains(mapper.pointX(value)))
            #expect(NumberRange.coordinate.contains(mapper.pointY(value)))
            #expect(NumberRange.size.contains(mapper.points(major: value)))
        }
        // A scene size that is no number does not trap the mapper either.
        let odd = CoordinateMapper(description: DeviceDescription(), sceneWidth: .nan, sceneHeight: 1e308)
        #expect(NumberRange.coordinate.contains(odd.pointY(Int32.max)))
    }

    @Test func aScriptPointBeyondTheCoordinateRange_isOutOfRangeWithoutAScene() {
        let script = TouchScript.parse(
            #"{"t_ms": 0, "device": "d0", "id": 0, "phase": "began", "x": 2000000, "y": 1}"#)
        #expect(script.lines.isEmpty)
        #expect(script.problems.map(\.code) == [.outOfRange])
    }
}
