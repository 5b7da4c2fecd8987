import BusSchema
import MessageFixtures
import Testing

/// Every number entering through `touch.frame`, `gesture.event` or an envelope is checked at the
/// decoder: NaN, ±∞ and values past the schema's range are refused with the field named, on the
/// fast path (what publishers write) as on the general one.
@Suite struct HostileNumberTests {
    static let hostile: [Double] = [.nan, .infinity, -.infinity, 1e308, -1e308, 2e6]

    /// Decodes `payload` as `M` and returns the refusal's context.
    static func refusal<M: BusMessage>(_ payload: [UInt8], as _: M.Type) -> String? {
        do {
            _ = try M(messagePack: payload)
            return nil
        } catch let error as CodecError {
            #expect(error.code == .invalidValue)
            return error.context
        } catch {
            Issue.record("unexpected \(error)")
            return nil
        }
    }

    @Test(arguments: hostile)
    func aTouchContactOutOfRange_isRefusedNamingTheField(_ value: Double) {
        let frame = TouchFrame.frame("d0", 1, tNs: 0, contacts: [.contact(0, .began, x: value, y: 10)])
        #expect(Self.refusal(frame.messagePack, as: TouchFrame.self)?.hasPrefix("contacts[0].x") == true)
        let general: Value = .map([
            "frame": .int(1), "device": .string("d0"), "t_ns": .int(0),
            "contacts": .array([
                .map(["id": .int(0), "phase": .string("began"), "x": .int(1), "y": .double(value)])
            ]),
        ])
        #expect(Self.refusal(general.messagePack, as: TouchFrame.self)?.hasPrefix("contacts[0].y") == true)
    }

    @Test func aTouchFrameWithTooManyContactsOrANegativeTime_isRefused() {
        let many = TouchFrame.frame(
            "d0", 1, tNs: 0,
            contacts: (0...TouchFrame.maxContacts).map { id in
                TouchContact.contact(id, .began, x: 1, y: 1)
            })
        #expect(Self.refusal(many.messagePack, as: TouchFrame.self)?.hasPrefix("contacts") == true)
        let negative = TouchFrame.frame("d0", 1, tNs: -5, contacts: [])
        #expect(Self.refusal(negative.messagePack, as: TouchFrame.self)?.hasPrefix("t_ns") == true)
        let pressure = TouchFrame.frame(
            "d0", 1, tNs: 0,
            contacts: [
                .contact(0, .began, x: 1, y: 1) { $0.pressure = 2 }
            ])
        #expect(Self.refusal(pressure.messagePack, as: TouchFrame.self)?.hasPrefix("contacts[0].pressure") == true)
    }

    /// Sets every motion number a continuous gesture event carries.
    static func move(
        _ event: inout GestureEvent, translation: (Double, Double), velocity: (Double, Double),
        scale: (Double, velocity: Double), rotation: (Double, velocity: Double)
    ) {
        event.translation = GestureEvent.Vector(x: translation.0, y: translation.1)
        event.velocity = GestureEvent.Vector(x: velocity.0, y: velocity.1)
        event.scale = scale.0
        event.rotation = rotation.0
        event.scaleVelocity = scale.velocity
        event.rotationVelocity = rotation.velocity
    }

    static func pan(_ value: Double, in field: String) -> GestureEvent {
        var event = GestureEvent.gesture(.pan, .changed, view: "v", x: 10, y: 10, tMs: 10) {
            Self.move(&$0, translation: (1, 1), velocity: (1, 1), scale: (1, 0), rotation: (0, 0))
        }
        switch field {
        case "t_ms": event.tMs = value
        case "x": event.x = value
        case "y": event.y = value
        case "translation.x": event.translation?.x = value
        case "velocity.y": event.velocity?.y = value
        case "scale": event.scale = value
        case "rotation": event.rotation = value
        case "scale_velocity": event.scaleVelocity = value
        default: event.rotationVelocity = value
        }
        return event
    }

    @Test(arguments: [
        "t_ms", "x", "y", "translation.x", "velocity.y", "scale", "rotation", "scale_velocity", "rotation_velocity",
    ])
    func aGestureNumberOutOfRange_isRefusedNamingTheField(_ field: String) {
        for value in [Double.nan, .infinity, -.infinity, 1e308, -1e308] {
            let payload = Self.pan(value, in: field).messagePack
            #expect(Self.refusal(payload, as: GestureEvent.self)?.hasPrefix(field) == true, "\(field) = \(value)")
            // The general path (another key order) names it too.
            guard case .map(let map) = try? Value(messagePack: payload) else {
                Issue.record("payload is not a map")
                continue
            }
            let reordered = Value.map(ValueMap(map.entries.reversed().map { ($0.key, $0.value) }))
            #expect(Self.refusal(reordered.messagePack, as: GestureEvent.self)?.hasPrefix(field) == true)
        }
    }

    @Test func aGestureWithAHugeTouchCount_isRefused() {
        var event = Self.pan(0, in: "rotation")
        event.touches = 1_000_000
        #expect(Self.refusal(event.messagePack, as: GestureEvent.self)?.hasPrefix("touches") == true)
    }

    @Test func clampingMovesEveryNumberIntoItsRange_soTheEventDecodes() throws {
        var event = GestureEvent.gesture(.pinch, .changed, view: "v", x: .nan, y: -1e308, tMs: .infinity, touches: -3) {
            Self.move(
                &$0, translation: (.infinity, .nan), velocity: (1e300, -1e300), scale: (.infinity, -.infinity),
                rotation: (.nan, 1e20))
        }
        event.clampNumbers()
        let decoded = try GestureEvent(messagePack: event.messagePack)
        #expect(decoded == event)
        #expect(decoded.x == 0 && decoded.y == GestureEvent.Limits.location.lower && decoded.touches == 0)
        #expect(decoded.velocity == GestureEvent.Vector(x: 1e7, y: -1e7))
    }

    @Test func anEventIsWithinLimits_exactlyWhenClampingLeavesItUnchanged() {
        let inRange = GestureEvent.gesture(.pinch, .changed, view: "v", x: 1, y: 2, tMs: 5, touches: 2) {
            Self.move(&$0, translation: (3, 4), velocity: (5, 6), scale: (1.5, 7), rotation: (0.5, 8))
        }
        var unchanged = inRange
        unchanged.clampNumbers()
        #expect(inRange.numbersWithinLimits && unchanged == inRange)
        let breaks: [(inout GestureEvent) -> Void] = [
            { $0.tMs = -1 }, { $0.x = .nan }, { $0.y = 2e6 }, { $0.touches = -1 },
            { $0.translation?.y = .infinity }, { $0.velocity?.x = -1e8 }, { $0.scale = -0.5 },
            { $0.rotation = .nan }, { $0.scaleVelocity = 1e8 }, { $0.rotationVelocity = -.infinity },
        ]
        for (field, breakIt) in breaks.enumerated() {
            var event = inRange
            breakIt(&event)
            #expect(!event.numbersWithinLimits, "field \(field)")
            event.clampNumbers()
            #expect(event.numbersWithinLimits && event != inRange, "field \(field)")
        }
    }

    static func header(seq: UInt64) -> [UInt8] {
        var writer = MessagePackWriter()
        Envelope(schema: TouchFrame.schema, publisher: "spoof", epoch: 7, seq: seq, mono: 1, wall: 2).encode(
            to: &writer)
        return writer.bytes
    }

    @Test(arguments: [0, Envelope.maxSeq + 1, UInt64.max])
    func anEnvelopeSeqOutsideTheSchema_isRefusedOnBothPaths(_ seq: UInt64) {
        var decoder = EnvelopeDecoder()
        _ = Self.header(seq: 1).withUnsafeBytes { try? decoder.decode($0) }
        #expect(throws: CodecError.self) { _ = try Self.header(seq: seq).withUnsafeBytes { try decoder.decode($0) } }
        #expect(throws: CodecError.self) {
            _ = try Self.header(seq: seq).withUnsafeBytes { try Envelope(messagePack: $0) }
        }
    }

    @Test func theLargestSeqTheSchemaAllows_decodes() throws {
        var decoder = EnvelopeDecoder()
        _ = Self.header(seq: 1).withUnsafeBytes { try? decoder.decode($0) }
        let envelope = try Self.header(seq: Envelope.maxSeq).withUnsafeBytes { try decoder.decode($0) }
        #expect(envelope.seq == Envelope.maxSeq)
    }

    @Test func aStateNumberThatIsNotFinite_isRefused() {
        let state: Value = .map([
            "instance": .string("c1"), "t_ms": .int(0),
            "strokes": .array([
                .map([
                    "id": .int(1), "points": .array([.array([.double(.nan), .int(1)])]), "width": .int(4),
                    "color": .string("#000000"),
                ])
            ]),
        ])
        #expect(throws: CodecError.self) { _ = try CanvasState(payload: state) }
        let width: Value = .map([
            "instance": .string("c1"), "t_ms": .double(.infinity), "strokes": .array([]),
        ])
        #expect(throws: CodecError.self) { _ = try CanvasState(payload: width) }
    }
}
