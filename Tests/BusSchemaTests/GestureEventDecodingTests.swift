import MessageFixtures
import Testing

@testable import BusSchema

/// The gesture event decoder has a path specialised to the encoder's key order; whatever the
/// layout, the result must be what the schema says, and bad bytes must fail cleanly.
@Suite struct GestureEventDecodingTests {
    /// A random event: every optional field present or not, numbers whole or not, positive or
    /// negative (each within its schema range), names short (fixstr) or long (str8).
    static func event(_ generator: inout SplitMix64) -> GestureEvent {
        func number(_ generator: inout SplitMix64, within limit: Double = 1e6) -> Double {
            let whole = Double(Int64(bitPattern: generator.next()) >> Int(generator.next() % 64))
                .truncatingRemainder(dividingBy: limit)
            return generator.next() % 2 == 0 ? whole : whole / 7
        }
        func maybe<T>(_ generator: inout SplitMix64, _ make: (inout SplitMix64) -> T) -> T? {
            generator.next() % 2 == 0 ? nil : make(&generator)
        }
        return GestureEvent {
            $0.tMs = abs(number(&generator, within: 1e13))
            $0.device = "d\(generator.next() % 3)"
            $0.view = generator.next() % 4 == 0 ? "v" : "view-\(generator.next() % 100)"
            $0.recognizer = GestureEvent.Kind.allCases[Int(generator.next() % 9)]
            $0.state = GestureEvent.State.allCases[Int(generator.next() % 6)]
            $0.x = number(&generator)
            $0.y = number(&generator)
            $0.touches = Int(generator.next() % 257)
            $0.direction = maybe(&generator) { GestureEvent.Direction.allCases[Int($0.next() % 4)] }
            $0.translation = maybe(&generator) { GestureEvent.Vector(x: number(&$0), y: number(&$0)) }
            $0.velocity = maybe(&generator) { GestureEvent.Vector(x: number(&$0), y: number(&$0)) }
            $0.scale = maybe(&generator) { abs(number(&$0)) }
            $0.rotation = maybe(&generator) { number(&$0) }
            $0.edge = maybe(&generator) { GestureEvent.Edge.allCases[Int($0.next() % 4)] }
            $0.name = maybe(&generator) { $0.next() % 2 == 0 ? "swipeLeft" : String(repeating: "long", count: 10) }
            $0.scaleVelocity = maybe(&generator) { number(&$0) }
            $0.rotationVelocity = maybe(&generator) { number(&$0) }
        }
    }

    /// Whether `bytes` take the specialised path, and what it makes of them.
    static func scanned(_ bytes: [UInt8]) -> GestureEvent? {
        bytes.withUnsafeBytes { raw in
            var reader = MessagePackReader(raw)
            var event = GestureEvent.empty
            return reader.scan({ event.decode(scanning: &$0) }) ? event : nil
        }
    }

    @Test func encodedEventsDecodeToThemselvesAndTakeTheSpecialisedPathUnlessANameIsLong() throws {
        var generator = SplitMix64(seed: 11)
        var scannedCount = 0
        for _ in 0..<2000 {
            let event = Self.event(&generator)
            #expect(try GestureEvent(messagePack: event.messagePack) == event)
            let scanned = Self.scanned(event.messagePack)
            #expect(scanned == nil ? event.name?.utf8.count ?? 0 > 31 : scanned == event)
            if scanned != nil { scannedCount += 1 }
        }
        #expect(scannedCount > 1000, "a quarter of the events have a long name")
    }

    @Test func reorderedKeysAndUnknownKeysDecodeToTheSameEvent() throws {
        var generator = SplitMix64(seed: 12)
        for _ in 0..<300 {
            let event = Self.event(&generator)
            let entries = event.value.mapValue!.entries.map { ($0.key, $0.value) }
            let reversed = Value.map(ValueMap(entries.reversed()))
            #expect(try GestureEvent(messagePack: reversed.messagePack) == event)
            let extended = Value.map(ValueMap(entries + [("future_field", .string("ignored"))]))
            #expect(Self.scanned(extended.messagePack) == nil)
            #expect(try GestureEvent(messagePack: extended.messagePack) == event)
        }
    }

    @Test func anUnknownRecognizerFailsWithItsFieldNamedOnEitherPath() throws {
        let event = GestureEvent.gesture(.pan, .changed, view: "root", x: 1, y: 2, tMs: 1)
        var entries = event.value.mapValue!.entries.map { ($0.key, $0.value) }
        entries[3].1 = .string("wiggle")
        for order in [entries, entries.reversed()] {
            let bytes = Value.map(ValueMap(order)).messagePack
            #expect(Self.scanned(bytes) == nil)
            #expect {
                try GestureEvent(messagePack: bytes)
            } throws: { error in
                "\(error)".contains("recognizer") && "\(error)".contains("wiggle")
            }
        }
    }

    @Test func everyTruncationOfAnEventFailsCleanly() throws {
        var generator = SplitMix64(seed: 13)
        let bytes = Self.event(&generator).messagePack
        for length in 0..<bytes.count {
            #expect(throws: CodecError.self) { try GestureEvent(messagePack: Array(bytes.prefix(length))) }
        }
    }

    @Test func aProbeReadsTheEventsTimeInAnyLayoutAndNilWithoutOne() throws {
        var generator = SplitMix64(seed: 14)
        for _ in 0..<300 {
            let event = Self.event(&generator)
            #expect(try GestureEvent.tMs(inMessagePack: event.messagePack) == event.tMs)
            let entries = event.value.mapValue!.entries.map { ($0.key, $0.value) }
            let reversed = Value.map(ValueMap(entries.reversed())).messagePack
            #expect(try GestureEvent.tMs(inMessagePack: reversed) == event.tMs)
            #expect(
                try GestureEvent.tMs(inMessagePack: Value.map(ValueMap(Array(entries.dropFirst()))).messagePack) == nil)
            #expect(throws: CodecError.self) { try GestureEvent.tMs(inMessagePack: Array(reversed.dropLast())) }
        }
        #expect(throws: CodecError.self) { try GestureEvent.tMs(inMessagePack: Value.string("t_ms").messagePack) }
    }

    @Test func decodingEventAfterEventIntoOneValueGivesEachEventWhateverCameBefore() throws {
        var generator = SplitMix64(seed: 15)
        var reused = GestureEvent.empty
        for round in 0..<600 {
            let event = Self.event(&generator)
            var bytes = event.messagePack
            if round % 3 == 1 {
                bytes =
                    Value.map(ValueMap(event.value.mapValue!.entries.map { ($0.key, $0.value) }.reversed())).messagePack
            }
            if round % 7 == 3 {
                #expect(throws: CodecError.self) { try reused.decode(messagePack: Array(bytes.dropLast())) }
            }
            try reused.decode(messagePack: bytes)
            #expect(reused == event)
        }
    }
}
