import Testing

@testable import RenderCore

@Suite struct FrameSchedulerTests {
    @Test func firstStateRendersAtOnce() {
        var scheduler = FrameScheduler(framesPerSecond: 50)
        #expect(
            scheduler.handle(.stateApplied(stateSeq: 1, atMs: 0)) == [.render(frameID: 1, stateSeq: 1, writePNG: false)]
        )
    }

    @Test func statesDuringAFrameCoalesceIntoOneNewestFrameAtTheRateLimit() {
        var scheduler = FrameScheduler(framesPerSecond: 50)  // 20 ms apart on average
        _ = scheduler.handle(.stateApplied(stateSeq: 1, atMs: 0))
        #expect(scheduler.handle(.stateApplied(stateSeq: 2, atMs: 3)).isEmpty)
        #expect(scheduler.handle(.stateApplied(stateSeq: 3, atMs: 4)).isEmpty)
        // One interval ahead of the schedule is allowed: the newest state is drawn at once.
        #expect(
            scheduler.handle(.frameFinished(atMs: 8, stillAnimating: false)) == [
                .render(frameID: 2, stateSeq: 3, writePNG: false)
            ])
        #expect(scheduler.handle(.stateApplied(stateSeq: 4, atMs: 12)).isEmpty)
        // Two frames by 8 ms: the third waits for the schedule (frame 1 at 0, frame 2's slot at 20).
        #expect(scheduler.handle(.frameFinished(atMs: 15, stillAnimating: false)) == [.armTimer(atMs: 20)])
        #expect(scheduler.handle(.timerFired(atMs: 20)) == [.render(frameID: 3, stateSeq: 4, writePNG: false)])
        #expect(scheduler.handle(.frameFinished(atMs: 25, stillAnimating: false)).isEmpty)
    }

    /// Input at the display's 60 Hz reaches the render worker jittered by the bus: a state 15 ms
    /// after the last frame began is drawn at once, not held 1.7 ms for a fixed interval (and the
    /// next one after it, and so on: a held frame makes the next state early too).
    @Test func statesAtTheFrameRateJitteredEarlyAreDrawnAtOnce() {
        var scheduler = FrameScheduler(framesPerSecond: 60)
        var now = 0.0
        var frameID = 0
        for (seq, gap) in [0.0, 15, 17, 15, 18, 14, 17, 16].enumerated() {
            now += gap
            frameID += 1
            #expect(
                scheduler.handle(.stateApplied(stateSeq: seq + 1, atMs: now)) == [
                    .render(frameID: frameID, stateSeq: seq + 1, writePNG: false)
                ], "state \(seq + 1) at \(now) ms")
            #expect(scheduler.handle(.frameFinished(atMs: now + 5, stillAnimating: false)).isEmpty)
        }
    }

    @Test func aFloodOfStatesGetsNoMoreFramesASecondThanTheRate() {
        var scheduler = FrameScheduler(framesPerSecond: 60)
        var timer: Double?
        var frames = 0
        var rendering = false
        func perform(_ effects: [FrameScheduler.Effect]) {
            for effect in effects {
                switch effect {
                case .render:
                    frames += 1
                    rendering = true
                case .armTimer(let at): timer = at
                }
            }
        }
        // A state every millisecond for a second; each frame takes 2 ms.
        var finishAt = 0.0
        for ms in 0..<1000 {
            let now = Double(ms)
            if rendering, now >= finishAt {
                rendering = false
                perform(scheduler.handle(.frameFinished(atMs: now, stillAnimating: false)))
                if rendering { finishAt = now + 2 }
            }
            if let at = timer, now >= at {
                timer = nil
                perform(scheduler.handle(.timerFired(atMs: now)))
                if rendering { finishAt = now + 2 }
            }
            let wasRendering = rendering
            perform(scheduler.handle(.stateApplied(stateSeq: ms + 1, atMs: now)))
            if rendering, !wasRendering { finishAt = now + 2 }
        }
        #expect((60...61).contains(frames), "\(frames) frames in one second at 60 frames/s")
    }

    @Test func animationsKeepFramesComingWithoutNewState() {
        var scheduler = FrameScheduler(framesPerSecond: 50)
        _ = scheduler.handle(.stateApplied(stateSeq: 1, atMs: 0))
        #expect(
            scheduler.handle(.frameFinished(atMs: 5, stillAnimating: true)) == [
                .render(frameID: 2, stateSeq: 1, writePNG: false)
            ])
        #expect(scheduler.handle(.frameFinished(atMs: 10, stillAnimating: true)) == [.armTimer(atMs: 20)])
        #expect(scheduler.handle(.timerFired(atMs: 20)) == [.render(frameID: 3, stateSeq: 1, writePNG: false)])
        #expect(
            scheduler.handle(.frameFinished(atMs: 45, stillAnimating: true)) == [
                .render(frameID: 4, stateSeq: 1, writePNG: false)
            ])
    }

    @Test func snapshotsOnRequestAndEveryNFrames() {
        var scheduler = FrameScheduler(framesPerSecond: 1000, snapshotEvery: 3)
        var pngs: [Int] = []
        var t = 0.0
        for seq in 1...7 {
            for effect in scheduler.handle(.stateApplied(stateSeq: seq, atMs: t)) {
                if case .render(let id, _, true) = effect { pngs.append(id) }
            }
            t += 2
            _ = scheduler.handle(.frameFinished(atMs: t, stillAnimating: false))
            t += 2
        }
        #expect(pngs == [3, 6])
        let effects = scheduler.handle(.snapshotRequested(atMs: t))
        #expect(effects == [.render(frameID: 8, stateSeq: 7, writePNG: true)])
    }

    @Test func aRedrawDrawsTheUnchangedStateOnceAndWaitsForTheFrameInFlight() {
        var scheduler = FrameScheduler(framesPerSecond: 10)
        #expect(scheduler.handle(.redrawRequested(atMs: 0)) == [.render(frameID: 1, stateSeq: 0, writePNG: false)])
        #expect(scheduler.handle(.redrawRequested(atMs: 1)).isEmpty, "drawing: marked dirty")
        #expect(
            scheduler.handle(.frameFinished(atMs: 5, stillAnimating: false)) == [
                .render(frameID: 2, stateSeq: 0, writePNG: false)
            ])
        #expect(scheduler.handle(.redrawRequested(atMs: 6)).isEmpty, "drawing: marked dirty")
        #expect(scheduler.handle(.frameFinished(atMs: 10, stillAnimating: false)) == [.armTimer(atMs: 100)])
        #expect(scheduler.handle(.redrawRequested(atMs: 11)).isEmpty, "already waiting")
        #expect(scheduler.handle(.timerFired(atMs: 100)) == [.render(frameID: 3, stateSeq: 0, writePNG: false)])
        #expect(scheduler.handle(.frameFinished(atMs: 105, stillAnimating: false)).isEmpty)
    }
}
