import BusSchema
import InputCore
import Testing

@Suite struct TouchScriptTests {
    @Test func linesBecomeFramesWithEveryLiveContact() {
        let script = TouchScript.parse(
            """
            {"t_ms": 0, "device": "d0", "id": 0, "phase": "began", "x": 42, "y": 24}
            {"t_ms": 10, "device": "d0", "id": 1, "phase": "began", "x": 100, "y": 100}
            {"t_ms": 20, "device": "d0", "id": 0, "phase": "moved", "x": 50, "y": 24}
            {"t_ms": 20, "device": "d1", "id": 0, "phase": "began", "x": 1, "y": 2}
            {"t_ms": 30, "device": "d0", "id": 0, "phase": "ended", "x": 50, "y": 24}
            {"t_ms": 30, "device": "d0", "id": 1, "phase": "ended", "x": 100, "y": 100}
            {"t_ms": 40, "device": "d1", "id": 0, "phase": "cancelled", "x": 1, "y": 2}
            """)
        #expect(script.problems.isEmpty)
        let (frames, problems) = TouchScriptFramer.frames(for: script)
        #expect(problems.isEmpty)
        #expect(frames.map(\.device) == ["d0", "d0", "d0", "d1", "d0", "d1"])
        #expect(frames.map(\.frame) == [1, 2, 3, 1, 4, 2])
        #expect(frames[1].contacts.map(\.phase) == [.stationary, .began])
        #expect(frames[2].contacts.map(\.phase) == [.moved, .stationary])
        #expect(frames[4].contacts.map(\.phase) == [.ended, .ended])
        #expect(frames[4].tNs == 30_000_000)
    }

    @Test func badLinesAreReportedWithTheirNumbersAndSkipped() {
        let script = TouchScript.parse(
            """
            {"t_ms": 4, "device": "d0", "id": 0, "phase": "began", "x": 42, "y": 24}
            not json

            {"t_ms": 5, "device": "d0", "id": 0, "phase": "wiggled", "x": 42, "y": 24}
            {"t_ms": 5, "device": "d0", "id": 0, "phase": "moved", "x": -3, "y": 24}
            {"t_ms": 5, "device": "d0", "phase": "moved", "x": 3, "y": 24}
            {"t_ms": 3, "device": "d0", "id": 0, "phase": "moved", "x": 3, "y": 24}
            {"t_ms": 6, "device": "d0", "id": 0, "phase": "moved", "x": 900, "y": 24}
            [1, 2]
            {"t_ms": 7, "device": "d0", "id": -2, "phase": "moved", "x": 4, "y": 24}
            {"t_ms": 7, "device": "d0", "id": 0, "phase": "ended", "x": 4, "y": 24}
            """, bounds: (width: 800, height: 600))
        #expect(script.lines.count == 2)
        #expect(script.problems.map(\.line) == [2, 4, 5, 6, 7, 8, 9, 10])
        #expect(
            script.problems.map(\.code) == [
                .malformed, .invalidValue, .outOfRange, .missingField, .timeWentBackwards, .outOfRange, .malformed,
                .invalidValue,
            ])
        #expect(script.problems[1].context.contains("wiggled"))
    }

    @Test func timesBeyondTheFrameClockAreOutOfRangeNotATrap() {
        // Found by the fuzzer (Tests/data/fuzz/touch.script/): a frame's int64 ns once overflowed.
        let script = TouchScript.parse(
            """
            {"t_ms": 9223372036854, "device": "d0", "id": 0, "phase": "began", "x": 1, "y": 1}
            {"t_ms": 9223372036855, "device": "d0", "id": 0, "phase": "ended", "x": 1, "y": 1}
            """)
        #expect(script.problems.map(\.code) == [.outOfRange])
        #expect(script.problems.map(\.line) == [2])
        let (frames, _) = TouchScriptFramer.frames(for: script)
        #expect(frames.map(\.tNs) == [Int64((9_223_372_036_854.0 * 1_000_000).rounded())])
    }

    @Test func touchesThatEndWithoutBeginningAreReported() {
        let script = TouchScript.parse(
            """
            {"t_ms": 0, "device": "d0", "id": 5, "phase": "moved", "x": 1, "y": 1}
            {"t_ms": 1, "device": "d0", "id": 6, "phase": "ended", "x": 1, "y": 1}
            {"t_ms": 2, "device": "d0", "id": 7, "phase": "began", "x": 1, "y": 1}
            {"t_ms": 3, "device": "d0", "id": 7, "phase": "began", "x": 1, "y": 1}
            {"t_ms": 4, "device": "d0", "id": 7, "phase": "ended", "x": 1, "y": 1}
            """)
        let (frames, problems) = TouchScriptFramer.frames(for: script)
        #expect(problems.map(\.line) == [1, 2, 4])
        #expect(problems.allSatisfy { $0.code == .unknownTouch })
        #expect(frames.map { $0.contacts.map(\.phase) } == [[.began], [.ended]])
    }

    @Test func sameIdTwiceAtOneInstantMakesTwoFrames() {
        let script = TouchScript.parse(
            """
            {"t_ms": 0, "device": "d0", "id": 0, "phase": "began", "x": 1, "y": 1}
            {"t_ms": 0, "device": "d0", "id": 0, "phase": "ended", "x": 1, "y": 1}
            """)
        let frames = TouchScriptFramer.frames(for: script).frames
        #expect(frames.map { $0.contacts.map(\.phase) } == [[.began], [.ended]])
    }

    @Test func scriptsRoundTripThroughJSONLines() {
        let lines = ScenarioGenerator().pinch(x: 200, y: 200, fromSpan: 80, toSpan: 200)
        let reparsed = TouchScript.parse(TouchScript(lines: lines).jsonLines)
        #expect(reparsed.problems.isEmpty)
        #expect(reparsed.lines == lines)
    }
}
