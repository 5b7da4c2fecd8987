#if canImport(Glibc)
    import Glibc
#endif

extension RecognizerMachine {
    /// Tap with `tapsRequired` taps of `touchesRequired` fingers (a doubleTap needs two taps).
    ///
    /// Fails when a finger moves beyond the slop, when more fingers than required land, when a
    /// finger stays down longer than `maxTapDurationMs`, when the next tap lands sooner than
    /// `doubleTapMinMs` or later than `doubleTapTimeoutMs` after the lift or farther than
    /// `doubleTapDistance` from the first tap (Android/Chromium double-tap rules).
    mutating func tapFrame(tNs: Int64) -> Proposal? {
        if self.cancelledTouch { return .fail }
        if self.landedCount > 0 {
            let startsTap = self.touches.count == self.landedCount
            if startsTap, self.tapCount > 0 {
                let gapMs = Double(tNs - self.tapDownNs) / 1e6
                let (x, y) = self.location
                if gapMs < self.settings.doubleTapMinMs { return .fail }
                if hypot(x - self.firstTapX, y - self.firstTapY) > self.settings.doubleTapDistance { return .fail }
            }
            if startsTap {
                self.tapDownNs = tNs
                self.setDeadline(tNs + Int64(self.settings.maxTapDurationMs * 1e6))
            }
            if self.touches.count > self.tapMaxTouches {
                self.tapMaxTouches = self.touches.count
                (self.tapX, self.tapY) = self.location
            }
            if self.touches.count > self.settings.touchesRequired { return .fail }
        }
        if self.anyTouchMoved(beyond: self.settings.slop) { return .fail }
        guard !self.lifted.isEmpty, self.touches.isEmpty else { return nil }
        // Every finger of this tap has lifted.
        guard self.tapMaxTouches == self.settings.touchesRequired else { return .fail }
        self.tapCount += 1
        if self.tapCount == 1 { (self.firstTapX, self.firstTapY) = (self.tapX, self.tapY) }
        if self.tapCount >= self.settings.tapsRequired { return .recognize }
        self.tapMaxTouches = 0
        // From now on tapDownNs is the lift time the next tap is measured from.
        self.tapDownNs = tNs
        self.setDeadline(tNs + Int64(self.settings.doubleTapTimeoutMs * 1e6))
        return nil
    }

    /// Long press: `touchesRequired` fingers held `minDurationMs` within `allowableMovement`
    /// begins it (from the timer); it changes as they move and ends when one lifts.
    mutating func longPressFrame(tNs: Int64) -> Proposal? {
        if self.phase == .active {
            if self.cancelledTouch { return .cancel }
            if self.touches.count < self.settings.touchesRequired { return .end }
            return self.moved ? .change : nil
        }
        if self.cancelledTouch || !self.lifted.isEmpty { return .fail }
        if self.touches.count > self.settings.touchesRequired { return .fail }
        if self.anyTouchMoved(beyond: self.settings.allowableMovement) { return .fail }
        if self.landedCount > 0, self.touches.count == self.settings.touchesRequired {
            self.setDeadline(tNs + Int64(self.settings.minDurationMs * 1e6))
        }
        return nil
    }

    /// Touch-down: begins the instant one finger lands (no slop, no delay), changes as it moves,
    /// ends when it lifts and is cancelled when a second finger lands.
    mutating func touchDownFrame() -> Proposal? {
        if self.phase == .active {
            if self.cancelledTouch || self.landedCount > 0 { return .cancel }
            if self.touches.isEmpty { return .end }
            return self.moved ? .change : nil
        }
        guard self.landedCount > 0 else { return self.touches.isEmpty ? .fail : nil }
        return self.touches.count == 1 && self.lifted.isEmpty ? .begin : .fail
    }
}
