import ServiceSupport
import Testing

@Suite struct OptionsTests {
    static let declared: [OptionSpec] = [
        .flag("json", "JSON lines"), .value("count", "N", "stop after N"), .value("bus", "FILE", "the bus"),
    ]

    @Test func aDeclaredParserRefusesATypoAndSuggestsTheNearestOption() {
        #expect {
            try Options(["echo", "--jsno"], declared: Self.declared)
        } throws: { error in
            "\(error)" == "unknown option --jsno (did you mean --json?)"
        }
        #expect {
            try Options(["echo", "--colour", "red"], declared: Self.declared)
        } throws: { error in
            "\(error)" == "unknown option --colour"
        }
    }

    @Test func anUndeclaredParserSuggestsFromTheNamesTheToolAskedFor() throws {
        var options = try Options(["run", "--nmae", "sc"])
        _ = options.string("name")
        _ = options.string("scene")
        #expect {
            try options.finish(maximumPositionals: 1)
        } throws: { error in
            "\(error)" == "unknown option --nmae (did you mean --name?)"
        }
        // A last unknown option with no word after it is still an unknown option, not one "needing a value".
        var trailing = try Options(["--jsno"], flags: ["json"])
        _ = trailing.flag("json")
        #expect {
            try trailing.finish(maximumPositionals: 0)
        } throws: { error in
            "\(error)" == "unknown option --jsno (did you mean --json?)"
        }
    }

    @Test func versionAndHelpAreAnsweredWhereverAnOptionStands() throws {
        #expect(throws: VersionRequest.self) { try Options(["echo", "--version"]) }
        #expect(throws: VersionRequest.self) { try Options(["--version"], declared: Self.declared) }
        #expect {
            try Options(["echo", "touch/", "--help"], declared: Self.declared)
        } throws: { error in
            (error as? HelpRequest)?.verb == "echo" && (error as? HelpRequest)?.options == Self.declared
        }
    }

    @Test func aVerbsHelpIsItsOwnUsageLinesAndOptions() {
        let usage = """
            usage: tool [--bus FILE] VERB
              echo [PATTERN] [--count N]
                   more about echo
              hz PATTERN
            """
        let text = HelpRequest(verb: "echo", options: Self.declared).text(usage: usage, tool: "tool")
        #expect(text.hasPrefix("usage: tool echo [PATTERN] [--count N]\n       more about echo\noptions:\n"))
        #expect(!text.contains("hz PATTERN"))
        #expect(text.contains("--count N"))
        #expect(HelpRequest(verb: "nope").text(usage: usage, tool: "tool") == usage)
    }

    @Test func aSwapOfNeighboursIsOneEdit() {
        #expect(EditDistance.between("jsno", "json") == 1)
        #expect(EditDistance.between("scnee", "scene") == 1)
        #expect(EditDistance.between("scnee", "scale") == 2)
        #expect(EditDistance.between("", "abc") == 3)
        #expect(EditDistance.between("kitten", "sitting") == 3)
    }

    @Test func humanUnitsPickTheUnitThatKeepsThreeDigits() {
        #expect(HumanUnits.duration(microseconds: 558_926) == "559 ms")
        #expect(HumanUnits.duration(microseconds: 850) == "850 µs")
        #expect(HumanUnits.duration(microseconds: 1_250_000) == "1.25 s")
        #expect(HumanUnits.duration(milliseconds: 12.34) == "12.3 ms")
        #expect(HumanUnits.duration(microseconds: 0.5) == "0.5 µs")
        #expect(HumanUnits.bytesPerSecond(1884.149) == "1.88 kB/s")
        #expect(HumanUnits.bytesPerSecond(512) == "512 B/s")
        #expect(HumanUnits.significant(48.377) == "48.4")
    }
}
