import BusSchema
import Foundation
import Testing

@testable import DemoReport

#if canImport(FoundationXML)
    import FoundationXML
#endif

@Suite struct DemoReportTests {
    static func model(supervisor: SupervisorStatus? = nil) throws -> ReportModel {
        let directory = SampleRecording.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/bus.mcap"
        try SampleRecording.write(to: path)
        return ReportModel(
            recording: try Recording.load(path: path), snapshotFiles: ["frame-000001.png", "frame-000003.png"],
            supervisor: supervisor)
    }

    /// Whether `text` parses as XML (FoundationXML's XMLParser).
    static func isWellFormed(_ text: String) -> Bool {
        XMLParser(data: Data(text.utf8)).parse()
    }

    static func svgs(in html: String) -> [String] {
        html.components(separatedBy: "<svg ").dropFirst().map {
            "<svg " + $0.components(separatedBy: "</svg>")[0] + "</svg>"
        }
    }

    @Test func totalsCountWhatTheRecordingHolds() throws {
        let model = try Self.model()
        #expect(model.messageCount == SampleRecording.lines.count)
        #expect(model.durationSeconds == 2.0)
        #expect(model.gestures == [.init(name: "pan", count: 1), .init(name: "tap", count: 2)])
        // drawer: closed → moving (two messages, one phase) → open; table: closed → row 2 open.
        #expect(
            model.transitions == [.init(name: "drawer/drawer1", count: 3), .init(name: "slideTable/table1", count: 2)])
        #expect(model.memosStored == 2)
        #expect(model.memoChanges == [.init(name: "upsert", count: 3)])
        #expect(model.memoAcks == [.init(name: "duplicate", count: 1), .init(name: "ok", count: 1)])
        #expect(model.framesRendered == 3)
        // The last health of each service epoch: component-host's final 3 gaps, not 2 + 3.
        #expect(model.messagesLost == 3)
        #expect(model.health.map(\.service) == ["component-host", "gesture-recognizer"])
        #expect(model.memos.map(\.trashed) == [false, true])
    }

    @Test func keyFramesAreTheRecordedFramesWhoseSnapshotExists() throws {
        let model = try Self.model()
        #expect(model.keyFrames.map(\.frameID) == [1, 3])
        #expect(model.keyFrames[0].timeNs == SampleRecording.start + 1_000_000_000)
    }

    @Test func keyFramesAreAtMostTwelveSpreadFromFirstToLast() {
        let frames = (1...40).map { ReportModel.Frame(frameID: $0, timeNs: nil, fileName: "frame-\($0).png") }
        let chosen = ReportModel.keyFrames(recorded: frames, snapshotFiles: frames.map { $0.fileName! })
        #expect(chosen.count == ReportModel.keyFrameLimit)
        #expect(chosen.first?.frameID == 1 && chosen.last?.frameID == 40)
    }

    @Test func latencyIsLogTimeMinusPublishTimeWithPercentiles() throws {
        let latency = try Self.model().latency
        #expect(latency.count == SampleRecording.lines.count)
        #expect(latency.p50Us == 300)
        #expect(latency.maxUs == 40_000)
        #expect(latency.p99Us == 40_000)
        #expect(latency.buckets.reduce(0) { $0 + $1.count } == latency.count)
        #expect(latency.buckets.first!.lowerUs <= 100 && latency.buckets.last!.upperUs > 40_000)
    }

    @Test func timelineHasALanePerComponentAndGestureKind() throws {
        let timeline = try Self.model().timeline
        #expect(timeline.lanes.map(\.name) == ["drawer/drawer1", "slideTable/table1", "pan", "swipe", "tap"])
        #expect(timeline.lanes[0].spans.map(\.label) == ["closed", "moving", "open"])
        #expect(timeline.lanes[2].spans.count == 1 && timeline.lanes[2].spans[0].endNs == 300_000_000)
        #expect(timeline.lanes[4].marks.count == 2)
    }

    @Test func htmlHasEverySectionAndEmbedsFrames() throws {
        let html = HTMLReport.render(try Self.model(), images: ["frame-000001.png": "data:image/png;base64,AAAA"])
        for id in ["summary", "frames", "timeline", "health", "latency", "memos"] {
            #expect(html.contains("<section id=\"\(id)\"") || html.contains("<header id=\"\(id)\""))
        }
        #expect(html.contains("src=\"data:image/png;base64,AAAA\""))
        #expect(html.contains("frame 1"))
        #expect(html.contains("messages lost"))
    }

    @Test func svgChartsAreWellFormedXML() throws {
        let svgs = Self.svgs(in: HTMLReport.render(try Self.model(), images: [:]))
        #expect(svgs.count == 2)
        for svg in svgs { #expect(Self.isWellFormed(svg), "\(svg.prefix(200))") }
        #expect(svgs[0].contains("<title>"))
    }

    @Test func memoTextIsEscapedAndJapaneseKept() throws {
        let html = HTMLReport.render(try Self.model(), images: [:])
        #expect(html.contains("買い物 &lt;milk&gt; &amp; &quot;卵&quot;"))
        #expect(!html.contains("<milk>"))
        #expect(html.contains("会議メモ"))
    }

    @Test func supervisorRestartsAndExitsJoinTheHealthTable() throws {
        let status = try SupervisorStatus(
            json: #"{"state":"stopped","services":[{"name":"component-host","state":"stopped","restarts":2,"#
                + #""last_exit":"signal 9"}]}"#, path: "s.json")
        let model = try Self.model(supervisor: status)
        #expect(model.health[0].restarts == 2 && model.health[0].lastExit == "signal 9")
        let html = HTMLReport.render(model, images: [:])
        #expect(html.contains("<th>restarts</th>") && html.contains("signal 9"))
    }

    @Test func unreadableSupervisorStatusIsANoteNotAFailure() throws {
        let directory = SampleRecording.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try SampleRecording.write(to: directory + "/bus.mcap")
        let command = try ReportCommand(arguments: [
            "--recording", directory + "/bus.mcap", "--status", directory + "/missing.json", "--out",
            directory + "/report.html",
        ])
        _ = try command.run()
        let html = try String(contentsOfFile: directory + "/report.html", encoding: .utf8)
        #expect(html.contains("No supervisor status: bad supervisor status: \(directory)/missing.json"))
    }

    @Test func emptyRecordingSaysSoInEverySection() throws {
        let directory = SampleRecording.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/empty.mcap"
        try SampleRecording.write(to: path, lines: [])
        let model = ReportModel(recording: try Recording.load(path: path))
        let html = HTMLReport.render(model, images: [:])
        #expect(html.contains("No frames were rendered"))
        #expect(html.contains("No gestures and no component states"))
        #expect(html.contains("No health messages"))
        #expect(html.contains("No messages, so no latencies"))
        #expect(html.contains("No memos"))
        #expect(model.summaryText(reportPath: "r.html").contains("messages lost: 0"))
    }

    @Test func missingRecordingErrorNamesTheFile() {
        #expect(throws: ReportError(.missingRecording, "/nonexistent/bus.mcap does not exist or cannot be read")) {
            try Recording.load(path: "/nonexistent/bus.mcap")
        }
    }

    @Test func corruptRecordingErrorNamesTheFile() throws {
        let directory = SampleRecording.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/corrupt.mcap"
        try Data("not an mcap file at all".utf8).write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: ReportError.self) { try Recording.load(path: path) }
        #expect(error?.code == .corruptRecording && error?.context.contains(path) == true)
    }

    @Test func commandWritesReportAndSummaryJSON() throws {
        let directory = SampleRecording.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try SampleRecording.write(to: directory + "/bus.mcap")
        try FileManager.default.createDirectory(atPath: directory + "/frames", withIntermediateDirectories: true)
        try Data([0x89, 0x50, 0x4e, 0x47]).write(to: URL(fileURLWithPath: directory + "/frames/frame-000003.png"))
        let command = try ReportCommand(arguments: [
            "--recording", directory + "/bus.mcap", "--frames", directory + "/frames", "--out",
            directory + "/out/report.html", "--summary-json", directory + "/summary.json",
        ])
        let summary = try command.run()
        #expect(summary.contains("gestures recognized: 3 (pan 1, tap 2)"))
        #expect(summary.contains("messages lost: 3"))
        let html = try String(contentsOfFile: directory + "/out/report.html", encoding: .utf8)
        #expect(html.contains("data:image/png;base64,iVBORw=="))
        let json = try JSONReader.parse(try String(contentsOfFile: directory + "/summary.json", encoding: .utf8))
        #expect(json["frames_rendered"]?.intValue == 3 && json["memos_stored"]?.intValue == 2)
    }
}
