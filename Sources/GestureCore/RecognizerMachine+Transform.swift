#if canImport(Glibc)
    import Glibc
#endif

extension RecognizerMachine {
    /// Pinch and rotation follow the first two fingers down.
    ///
    /// The span and angle are taken when the second finger lands. A pinch begins once the span has
    /// changed by more than `pinchSlop` (scale = span / start span); a rotation once the angle has
    /// turned by more than `rotationSlop` (radians, unwrapped, positive turning +x toward +y). They
    /// end when fewer than two of the pair remain, and fail if every finger lifts first.
    mutating func transformFrame(tNs: Int64) -> Proposal? {
        if self.pairIDs == nil, self.touches.count >= 2 {
            self.pairIDs = (self.touches[0].id, self.touches[1].id)
            let (span, angle) = self.spanAndAngle
            self.startSpan = max(span, 1)
            self.lastAngle = angle
            self.rotation = 0
            self.scale = 1
            self.transformTracker.reset()
        }
        var span = 0.0
        if let pair = self.pairIDs {
            // Positions include a finger lifted in this frame, so the last values are exact.
            let angle: Double
            (span, angle) = self.spanAndAngle
            var turn = angle - self.lastAngle
            if turn > Double.pi { turn -= 2 * Double.pi }
            if turn < -Double.pi { turn += 2 * Double.pi }
            self.rotation += turn
            self.lastAngle = angle
            self.scale = span / self.startSpan
            self.transformTracker.add(tNs: tNs, x: self.scale, y: self.rotation)
            self.sampledNs = tNs
            if !(self.follows(pair.0) && self.follows(pair.1)) {
                self.pairIDs = nil
                if self.phase == .active { return self.cancelledTouch ? .cancel : .end }
            }
        }
        if self.cancelledTouch { return self.phase == .active ? .cancel : .fail }
        if self.touches.isEmpty { return self.phase == .active ? .end : .fail }
        guard self.pairIDs != nil else { return nil }
        if self.phase == .active { return self.moved ? .change : nil }
        let started =
            self.kind == .pinch
            ? abs(span - self.startSpan) > self.settings.pinchSlop
            : abs(self.rotation) > self.settings.rotationSlop
        return started ? .begin : nil
    }

    /// The pair's span and angle (0 when the pair is gone), found in one pass: this runs for
    /// two recognizers on every frame.
    private var spanAndAngle: (span: Double, angle: Double) {
        guard let ids = self.pairIDs, let a = self.touchOrLifted(ids.0), let b = self.touchOrLifted(ids.1) else {
            return (0, 0)
        }
        return (hypot(b.x - a.x, b.y - a.y), atan2(b.y - a.y, b.x - a.x))
    }

    private func touchOrLifted(_ id: Int) -> TrackedTouch? {
        self.touches.first { $0.id == id } ?? self.lifted.first { $0.id == id }
    }
}
