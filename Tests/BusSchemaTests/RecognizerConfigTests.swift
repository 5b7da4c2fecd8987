import BusSchema
import Testing

/// A `recognizer.config` is checked once at the decoder: a recognizer name that fits a topic
/// segment, at most four known directions, a finite region within the schema's ranges.
@Suite struct RecognizerConfigTests {
    static func payload(_ fields: ValueMap) -> [UInt8] {
        var map: ValueMap = ["recognizer": .string("drawerSwipe"), "t_ms": .int(5)]
        for (key, value) in fields { map[key] = value }
        return Value.map(map).messagePack
    }

    static func region(_ x: Value, width: Value = .int(44)) -> Value {
        .map(["x": x, "y": .int(0), "width": width, "height": .int(1000)])
    }

    @Test func aConfigurationRoundTripsThroughItsCodec() throws {
        let config = RecognizerConfig {
            $0.recognizer = "drawerSwipe"
            $0.tMs = 12.5
            $0.instance = "drawer1"
            $0.directions = [.left]
            $0.receiveRegion = Scene.Frame(x: 0, y: 0, width: 240, height: 1000)
        }
        #expect(try RecognizerConfig(messagePack: config.messagePack) == config)
        let bare = RecognizerConfig {
            $0.recognizer = "cellSwipe"
            $0.tMs = 0
        }
        #expect(try RecognizerConfig(messagePack: bare.messagePack) == bare, "absent fields stay absent")
    }

    @Test(
        arguments: [
            (["recognizer": .string("a/b")], "recognizer"),
            (["recognizer": .string("")], "recognizer"),
            (["directions": .array([.string("left"), .string("sideways")])], "directions[1]"),
            (["directions": .array(Array(repeating: .string("left"), count: 5))], "directions"),
            (["receive_region": Self.region(.double(.nan))], "receive_region.x"),
            (["receive_region": Self.region(.double(2e6))], "receive_region.x"),
            (["receive_region": Self.region(.int(0), width: .int(-1))], "receive_region.width"),
        ] as [(ValueMap, String)])
    func aHostileConfiguration_isRefusedNamingTheField(_ fields: ValueMap, _ field: String) {
        #expect(throws: CodecError.self) { try RecognizerConfig(messagePack: Self.payload(fields)) }
        do {
            _ = try RecognizerConfig(messagePack: Self.payload(fields))
        } catch let error as CodecError {
            #expect(error.context.hasPrefix(field), "\(error.context)")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}
