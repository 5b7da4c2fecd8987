import BusSchema
import Testing

/// The `animation` object of component states: SBAnimator's duration, delay, curve and
/// autoreverse option, through MessagePack.
@Suite struct StateAnimationTests {
    static func roundTrip(_ animation: StateAnimation) throws -> (StateAnimation, Value) {
        var writer = MessagePackWriter()
        writer.writeMapHeader(1)
        writer.writeField("animation", animation)
        let value = try Value(messagePack: writer.bytes)
        let object = try #require(value["animation"])
        return (try StateAnimation(fields: try PayloadFields(object)), object)
    }

    @Test func anAutoreversingDelayedAnimationSurvivesTheWire() throws {
        let pulse = StateAnimation {
            $0.durationMs = 300
            $0.delayMs = 200
            $0.curve = .easeOut
            $0.autoreverses = true
        }
        let (decoded, object) = try Self.roundTrip(pulse)
        #expect(decoded == pulse)
        #expect(object["autoreverses"]?.boolValue == true)
    }

    @Test func withoutAutoreverseTheObjectKeepsItsThreeKeys() throws {
        let (decoded, object) = try Self.roundTrip(
            StateAnimation {
                $0.durationMs = 200
            })
        #expect(!decoded.autoreverses)
        #expect(object["autoreverses"] == nil, "readers of older minors see what they always did")
        #expect(object.mapValue?.count == 3)
    }

    @Test func aNonBooleanAutoreversesIsRefused() throws {
        let bad = try JSONReader.parse(#"{"duration_ms": 100, "autoreverses": "yes"}"#)
        #expect(throws: (any Error).self) { try StateAnimation(fields: try PayloadFields(bad)) }
    }
}
