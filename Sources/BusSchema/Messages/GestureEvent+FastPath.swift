/// The gesture event's decoder specialised to the key order ``GestureEvent/encode(to:)`` writes
/// (the general decoder in ``GestureEvent/init(from:)`` remains the reference).
extension GestureEvent {
    /// Decodes an event laid out exactly as ``encode(to:)`` writes it; false for anything else.
    mutating func decode(scanning scanner: inout MessagePackScanner) -> Bool {
        guard let fields = scanner.mapHeader(), fields >= 8, scanner.literal("t_ms"), let tMs = scanner.number(),
            scanner.literal("device"), let device = scanner.string().flatMap(String.init(validatedUTF8:)),
            scanner.literal("view"), let view = scanner.string().flatMap(String.init(validatedUTF8:)),
            scanner.literal("recognizer"), let recognizer = scanner.kind(), scanner.literal("state"),
            let state = scanner.state(), scanner.literal("x"), let x = scanner.number(), scanner.literal("y"),
            let y = scanner.number(), scanner.literal("touches"), let touches = scanner.signed()
        else { return false }
        self = GestureEvent(
            tMs: tMs, device: device, view: view, recognizer: recognizer, state: state, x: x, y: y,
            touches: Int(touches))
        // The optional fields, each where the encoder puts it if present.
        var remaining = fields - 8
        if remaining > 0, scanner.literal("direction") {
            guard let direction = scanner.direction() else { return false }
            self.direction = direction
            remaining -= 1
        }
        if remaining > 0, scanner.literal("translation") {
            guard let translation = scanner.vector() else { return false }
            self.translation = translation
            remaining -= 1
        }
        if remaining > 0, scanner.literal("velocity") {
            guard let velocity = scanner.vector() else { return false }
            self.velocity = velocity
            remaining -= 1
        }
        if remaining > 0, scanner.literal("scale") {
            guard let scale = scanner.number() else { return false }
            self.scale = scale
            remaining -= 1
        }
        if remaining > 0, scanner.literal("rotation") {
            guard let rotation = scanner.number() else { return false }
            self.rotation = rotation
            remaining -= 1
        }
        if remaining > 0, scanner.literal("edge") {
            guard let edge = scanner.edge() else { return false }
            self.edge = edge
            remaining -= 1
        }
        if remaining > 0, scanner.literal("name") {
            guard let name = scanner.string().flatMap(String.init(validatedUTF8:)) else { return false }
            self.name = name
            remaining -= 1
        }
        if remaining > 0, scanner.literal("scale_velocity") {
            guard let scaleVelocity = scanner.number() else { return false }
            self.scaleVelocity = scaleVelocity
            remaining -= 1
        }
        if remaining > 0, scanner.literal("rotation_velocity") {
            guard let rotationVelocity = scanner.number() else { return false }
            self.rotationVelocity = rotationVelocity
            remaining -= 1
        }
        return remaining == 0
    }
}

extension MessagePackScanner {
    fileprivate mutating func vector() -> GestureEvent.Vector? {
        guard self.mapHeader() == 2, self.literal("x"), let x = self.number(), self.literal("y"),
            let y = self.number()
        else { return nil }
        return GestureEvent.Vector(x: x, y: y)
    }

    // Each enum's wire names; anything else is left to the general decoder, which names the error.

    fileprivate mutating func kind() -> GestureEvent.Kind? {
        switch self.word() {
        case "pan"?: .pan
        case "touchDown"?: .touchDown
        case "pinch"?: .pinch
        case "rotation"?: .rotation
        case "swipe"?: .swipe
        case "tap"?: .tap
        case "doubleTap"?: .doubleTap
        case "longPress"?: .longPress
        case "edgePan"?: .edgePan
        default: nil
        }
    }

    fileprivate mutating func state() -> GestureEvent.State? {
        switch self.word() {
        case "changed"?: .changed
        case "began"?: .began
        case "ended"?: .ended
        case "recognized"?: .recognized
        case "failed"?: .failed
        case "cancelled"?: .cancelled
        default: nil
        }
    }

    fileprivate mutating func direction() -> GestureEvent.Direction? {
        switch self.word() {
        case "left"?: .left
        case "right"?: .right
        case "up"?: .up
        case "down"?: .down
        default: nil
        }
    }

    fileprivate mutating func edge() -> GestureEvent.Edge? {
        switch self.word() {
        case "left"?: .left
        case "right"?: .right
        case "top"?: .top
        case "bottom"?: .bottom
        default: nil
        }
    }
}
