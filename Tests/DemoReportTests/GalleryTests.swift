import BusSchema
import DemoReport
import Foundation
import Testing

/// The report's gallery: each idiom's key moments shown by the last snapshot drawn the first
/// time the component's state was in that moment, cut to its view.
@Suite struct GalleryTests {
    /// A pull to refresh going through its phases and a memo board opening its editor and then
    /// searching, with a snapshot every 100 ms (each took 20 ms to draw and 10 ms to encode).
    static let lines: [SampleRecording.Line] =
        [
            ("ui/pullToRefresh/h1/", "state.pullToRefresh", 0, 100, pull("hidden", 0)),
            ("ui/pullToRefresh/h1/", "state.pullToRefresh", 150, 100, pull("pullingDown", 40)),
            ("ui/pullToRefresh/h1/", "state.pullToRefresh", 330, 100, pull("overThreshold", 90)),
            ("ui/pullToRefresh/h1/", "state.pullToRefresh", 420, 100, pull("refreshing", 60)),
            ("ui/pullToRefresh/h1/", "state.pullToRefresh", 900, 100, pull("hidden", 0)),
            ("ui/memoBoard/b1/", "state.memoBoard", 1000, 100, board(editing: "\"m1\"")),
            // Between full states a board sends deltas: this one closes the editor and starts a search.
            ("ui/memoBoard/b1/delta/", "memoBoard.delta", 1150, 100, searchDelta),
        ] + (1...12).map { id in ("render/frame/", "render.frame", UInt64(id * 100 + 30), 100, frame(id)) }

    static func pull(_ phase: String, _ offset: Int) -> String {
        #"{"instance":"h1","t_ms":0,"phase":"\#(phase)","offset":\#(offset),"threshold":80,"label":"","arrow_angle":0}"#
    }

    static func board(editing: String) -> String {
        #"{"instance":"b1","t_ms":0,"memos":[],"selected":null,"arrange_order":"created","background":null,"editing":\#(editing)}"#
    }

    static let searchDelta =
        #"{"instance":"b1","t_ms":0,"revision":2,"base_revision":1,"memos":[],"trash":[],"removed":[],"selected":null,"#
        + #""arrange_order":"created","background":null,"editing":null,"search":{"query":"会議","matches":[]},"#
        + #""store_seq":1,"pending_commands":0,"syncing":false}"#

    static func frame(_ id: Int) -> String {
        #"{"frame_id":\#(id),"width":40,"height":20,"checksum":"00","state_seq":1,"timings":{"render_ms":20,"encode_ms":10},"#
            + #""png":"var/demo/frames/\#(name(id))"}"#
    }

    /// Snapshot `id`'s file name, as the render worker names it.
    static func name(_ id: Int) -> String {
        "frame-" + String(repeating: "0", count: 6 - String(id).count) + String(id) + ".png"
    }

    /// Writes the recording and a 40×20 snapshot for every frame but `missing`.
    static func write(to directory: String, missing: Set<Int> = []) throws {
        try SampleRecording.write(to: directory + "/bus.mcap", lines: Self.lines)
        try FileManager.default.createDirectory(atPath: directory + "/frames", withIntermediateDirectories: true)
        // The PNG signature and header chunk (40×20): all the report reads of a snapshot.
        let png: [UInt8] =
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
            + [0, 0, 0, 40, 0, 0, 0, 20, 8, 6, 0, 0, 0, 0, 0, 0, 0]
        for id in 1...12 where !missing.contains(id) {
            try Data(png).write(to: URL(fileURLWithPath: directory + "/frames/" + name(id)))
        }
    }

    static func moments(_ model: ReportModel, _ idiom: String) -> [String: Int?] {
        let moments = model.gallery.idioms.first { $0.name == idiom }?.moments ?? []
        return Dictionary(uniqueKeysWithValues: moments.map { ($0.name, $0.frameID) })
    }

    @Test func eachMomentIsTheLastSnapshotStartedInItsEarliestInterval() throws {
        let directory = SampleRecording.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Self.write(to: directory, missing: [4])
        let files = try FileManager.default.contentsOfDirectory(atPath: directory + "/frames")
        let model = ReportModel(recording: try Recording.load(path: directory + "/bus.mcap"), snapshotFiles: files)
        // Frame n was received at n·100 + 30 ms and started 30 ms before: at n·100 ms.
        let pull = Self.moments(model, "Pull to refresh")
        #expect(pull["pulled"] == .some(3), "150…330 ms: frames 2 and 3 started in it, the last shown")
        #expect(pull["over the threshold"] == .some(nil), "330…420 ms: frame 4 started at 400, but its PNG is missing")
        #expect(pull["refreshing"] == .some(8), "420…900 ms: frames 5 to 8")
        #expect(Self.moments(model, "Memo board")["editor open"] == .some(11), "1000…1150 ms: frames 10 and 11")
        #expect(Self.moments(model, "Memo board")["search"] == .some(12), "from the delta at 1150 ms: frame 12")
        #expect(model.gallery.idioms.map(\.name).count == 6, "every idiom is listed, shown or not")
    }

    @Test func theReportHasAGalleryWhoseEveryPictureIsASnapshotOnDisk() throws {
        let directory = SampleRecording.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Self.write(to: directory, missing: [4])
        // A 40×20 scene: the header's table is the left half, the board the right half.
        let scene = """
            {"width":40,"height":20,"views":[
             {"id":"table","frame":{"x":0,"y":0,"width":20,"height":20},"component":{"kind":"slideTable","id":"t1"}},
             {"id":"header","frame":{"x":0,"y":0,"width":20,"height":6},
              "component":{"kind":"pullToRefresh","id":"h1","config":{"scroll_view":"table"}}},
             {"id":"board","frame":{"x":20,"y":0,"width":20,"height":20},"component":{"kind":"memoBoard","id":"b1"}}]}
            """
        try scene.write(toFile: directory + "/scene.json", atomically: true, encoding: .utf8)
        let command = try ReportCommand(arguments: [
            "--recording", directory + "/bus.mcap", "--frames", directory + "/frames", "--scene",
            directory + "/scene.json", "--out", directory + "/report.html",
        ])
        _ = try command.run()
        let html = try String(contentsOfFile: directory + "/report.html", encoding: .utf8)
        #expect(html.contains("<section id=\"gallery\">"))
        let referenced = html.components(separatedBy: "data-frame=\"").dropFirst().map {
            String($0.prefix { $0 != "\"" })
        }
        #expect(Set(referenced) == ["frame-000003.png", "frame-000008.png", "frame-000011.png", "frame-000012.png"])
        for name in referenced {
            #expect(FileManager.default.fileExists(atPath: directory + "/frames/" + name), "\(name) exists")
            let rule = ".g-frame-" + name.dropFirst("frame-".count).replacingOccurrences(of: ".", with: "-")
            #expect(html.contains(rule + "{background-image:url(\"data:image/png;base64,"), "\(name) embedded")
        }
        // The board's moment is cut to the right half of the snapshot; the header's to its table.
        #expect(html.contains("background-position:-20.0px 0.0px"))
        #expect(html.contains("background-position:0.0px 0.0px"))
        #expect(html.components(separatedBy: "not captured").count - 1 == 10, "the 10 moments without a snapshot")
    }
}
