import BusSchema
import InputCore
import Testing

@Suite struct EvemuRecordingTests {
    @Test func descriptionGivesTheAxisRanges() {
        let desc = EvemuRecording.parse(Fixtures.text("evemu/Atmel_maXTouch_Touchscreen.desc"))
        #expect(desc.problems.isEmpty)
        #expect(desc.description.name == "Atmel maXTouch Touchscreen")
        #expect(desc.description.xRange == AxisRange(minimum: 0, maximum: 799))
        #expect(desc.description.yRange == AxisRange(minimum: 0, maximum: 479))
        #expect(desc.description.slotCount == 10)
    }

    @Test func axisLinesWithoutResolutionAreAccepted() {
        // EVEMU 1.1 files (N-Trig) have five numbers on an A: line.
        let desc = EvemuRecording.parse(Fixtures.text("evemu/N-Trig_MultiTouch.desc"))
        #expect(desc.problems.isEmpty)
        #expect(desc.description.xRange == AxisRange(minimum: 0, maximum: 9600))
    }

    @Test func axisLineWithTooFewValuesIsMalformedNotATrap() {
        // Found by the fuzzer (Tests/data/fuzz/evemu/): four values once indexed past the end.
        let desc = EvemuRecording.parse("A: 00 0 9600 0\nA: 01 0 7200 0 0\n")
        #expect(desc.problems.map(\.code) == [.malformed])
        #expect(desc.problems.map(\.line) == [1])
        #expect(desc.description.axes.keys.sorted() == [1])
    }

    @Test(arguments: Fixtures.recordings)
    func everyRecordingParsesWithoutProblems(name: String) {
        let recording = EvemuRecording.parse(Fixtures.text("evemu/\(name).events"))
        #expect(recording.problems.isEmpty)
        #expect(recording.events.count > 50)
    }

    @Test func eventLinesKeepTimeTypeCodeAndSignedValue() {
        let recording = EvemuRecording.parse("E: 0.095573 0003 0039 -001\t# EV_ABS / ABS_MT_TRACKING_ID   -1\n")
        #expect(
            recording.events == [
                InputEvent(time: SourceInstant(nanoseconds: 95_573_000), type: 3, code: 0x39, value: -1)
            ])
    }

    @Test func valuesOutsideTheAxisRangeAreReportedAndSkipped() {
        let desc = EvemuRecording.parse(Fixtures.text("evemu/Atmel_maXTouch_Touchscreen.desc")).description
        let recording = EvemuRecording.parse(
            """
            E: 0.000001 0003 0039 0003
            E: 0.000001 0003 0035 0800
            E: 0.000001 0003 0036 0479
            E: 0.000002 0003 002f 0010
            E: 0.000003 0003 0039 -001
            """, description: desc)
        #expect(recording.problems.map(\.line) == [2, 4])
        #expect(recording.problems.allSatisfy { $0.code == .outOfRange })
        #expect(recording.events.count == 3)
    }

    @Test func garbageLinesAreReportedWithTheirNumbersAndSkipped() {
        let text = """
            # EVEMU 1.3
            N: test
            A: 35 0 zz 0 0 0
            E: 0.000001 0003 0035 0340
            hello
            E: 0.000002 0003 00zz 1
            E: 0.000003 0003
            E: 0.000000 0003 0036 10
            E: x.y 0003 0036 10
            E: 0.000004 0000 0000 0000
            """
        let recording = EvemuRecording.parse(text)
        #expect(recording.events.count == 2)
        #expect(recording.problems.map(\.line) == [3, 5, 6, 7, 8, 9])
        #expect(
            recording.problems.map(\.code) == [
                .invalidValue, .malformed, .invalidValue, .malformed, .timeWentBackwards, .invalidValue,
            ])
    }
}
