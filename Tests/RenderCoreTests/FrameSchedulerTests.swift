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
        var scheduler = FrameScheduler(framesPerSecond: 50)  // 20 ms apart
        _ = scheduler.handle(.stateApplied(stateSeq: 1, atMs: 0))
        #expect(scheduler.handle(.stateApplied(stateSeq: 2, atMs: 3)).isEmpty)
        #expect(scheduler.handle(.stateApplied(stateSeq: 3, atMs: 4)).isEmpty)
        #expect(scheduler.handle(.frameFinished(atMs: 8, stillAnimating: false)) == [.armTimer(atMs: 20)])
        #expect(scheduler.handle(.stateApplied(stateSeq: 4, atMs: 12)).isEmpty)
        #expect(scheduler.handle(.timerFired(atMs: 20)) == [.render(frameID: 2, stateSeq: 4, writePNG: false)])
        #expect(scheduler.handle(.frameFinished(atMs: 25, stillAnimating: false)).isEmpty)
    }

    @Test func animationsKeepFramesComingWithoutNewState() {
        var scheduler = FrameScheduler(framesPerSecond: 50)
        _ = scheduler.handle(.stateApplied(stateSeq: 1, atMs: 0))
        #expect(scheduler.handle(.frameFinished(atMs: 5, stillAnimating: true)) == [.armTimer(atMs: 20)])
        #expect(scheduler.handle(.timerFired(atMs: 20)) == [.render(frameID: 2, stateSeq: 1, writePNG: false)])
        #expect(
            scheduler.handle(.frameFinished(atMs: 45, stillAnimating: true)) == [
                .render(frameID: 3, stateSeq: 1, writePNG: false)
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
        #expect(scheduler.handle(.frameFinished(atMs: 5, stillAnimating: false)) == [.armTimer(atMs: 100)])
        #expect(scheduler.handle(.redrawRequested(atMs: 6)).isEmpty, "already waiting")
        #expect(scheduler.handle(.timerFired(atMs: 100)) == [.render(frameID: 2, stateSeq: 0, writePNG: false)])
        #expect(scheduler.handle(.frameFinished(atMs: 105, stillAnimating: false)).isEmpty)
    }
}
