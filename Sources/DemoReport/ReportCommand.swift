import BusSchema
import Foundation
import ServiceSupport

/// `uibus-report`: reads a recording, the frames directory and the supervisor status, writes the HTML report.
public struct ReportCommand {
    public static let usage = """
        usage: uibus-report --recording FILE.mcap [--frames DIR] [--status supervisor.json]
                            [--scene scene.json] --out report.html [--summary-json FILE]
        """
    static let commandLine = CommandLineSpec(verbs: [
        "": [
            .value("recording", "FILE.mcap", "the demo's bus recording"),
            .value("frames", "DIR", "the PNG frames to show"),
            .value("status", "FILE", "the supervisor's status document"),
            .value("scene", "FILE", "the scene the demo ran (where each idiom's view lies in the gallery)"),
            .value("out", "FILE", "the report to write"),
            .value("summary-json", "FILE", "also write the summary as JSON"),
        ]
    ])

    var recordingPath: String
    var framesDirectory: String?
    var statusPath: String?
    /// The scene the demo ran, for where each idiom's view lies in the gallery's snapshots.
    var scenePath: String?
    var outPath: String
    var summaryPath: String?

    /// Parses the command line (without the program name).
    ///
    /// - Throws: `UsageError` for a missing or unknown option.
    public init(arguments: [String]) throws {
        var options = try Self.commandLine.parse(arguments)
        guard let recording = options.string("recording") else { throw UsageError("--recording is required") }
        guard let out = options.string("out") else { throw UsageError("--out is required") }
        self.recordingPath = recording
        self.outPath = out
        self.framesDirectory = options.string("frames")
        self.statusPath = options.string("status")
        self.scenePath = options.string("scene")
        self.summaryPath = options.string("summary-json")
        try options.finish(maximumPositionals: 0)
    }

    /// Writes the report (and summary JSON) and returns the plain-text summary.
    ///
    /// - Throws: ``ReportError`` naming the file that is missing, corrupt or unwritable.
    public func run() throws -> String {
        let recording = try Recording.load(path: self.recordingPath)
        // The recording is the source of truth; a missing status only costs the report its supervisor table.
        var status: SupervisorStatus?
        var statusProblem: String?
        if let path = self.statusPath {
            do {
                status = try SupervisorStatus.load(path: path)
            } catch {
                statusProblem = "\(error)"
                Log.error("uibus-report", "\(error) (the report shows no supervisor status)")
            }
        }
        let snapshots = self.framesDirectory.map(Self.pngFiles(in:)) ?? []
        let model = ReportModel(
            recording: recording, snapshotFiles: snapshots, supervisor: status, supervisorProblem: statusProblem)
        var images: [String: String] = [:]
        var snapshotSize: (width: Int, height: Int)?
        if let directory = self.framesDirectory {
            let gallery = model.gallery.idioms.flatMap { $0.moments.compactMap(\.fileName) }
            for name in model.keyFrames.compactMap(\.fileName) + gallery where images[name] == nil {
                guard let bytes = try? TextFile.bytes(directory + "/" + name) else { continue }
                images[name] = "data:image/png;base64," + Data(bytes).base64EncodedString()
                snapshotSize = snapshotSize ?? Self.pngSize(bytes)
            }
        }
        let crops = try snapshotSize.map { try self.crops(snapshotSize: $0) } ?? [:]
        try Self.write(HTMLReport.render(model, images: images, crops: crops), to: self.outPath)
        if let summaryPath = self.summaryPath { try Self.write(model.summaryJSON.json + "\n", to: summaryPath) }
        return model.summaryText(reportPath: self.outPath)
    }

    /// Where each gallery idiom's view lies in snapshots of `snapshotSize` pixels: its view's
    /// frame in the scene (a pull-to-refresh header: its table's), at most ``maxCropPoints``
    /// tall, scaled from scene points to pixels; the whole snapshot without a scene.
    func crops(snapshotSize: (width: Int, height: Int)) throws -> [String: HTMLReport.Crop] {
        let (width, height) = (Double(snapshotSize.width), Double(snapshotSize.height))
        let whole = HTMLReport.Crop(x: 0, y: 0, width: width, height: height, imageWidth: width, imageHeight: height)
        var crops = Dictionary(uniqueKeysWithValues: Gallery.spec.map { ($0.kind, whole) })
        guard let path = self.scenePath else { return crops }
        let scene: Scene
        do {
            scene = try SceneFile.load(path)
        } catch {
            throw ReportError(.badScene, "\(error)")
        }
        let scale = width / scene.width
        func crop(_ view: Scene.View, above: Double) -> HTMLReport.Crop {
            let frame = view.frame
            let top = max(0, frame.y - above)
            return HTMLReport.Crop(
                x: frame.x * scale, y: top * scale, width: frame.width * scale,
                height: min(frame.height + frame.y - top, Self.maxCropPoints) * scale, imageWidth: width,
                imageHeight: height)
        }
        for (kind, _) in crops {
            guard let view = scene.views.first(where: { $0.component?.kind.rawValue == kind }) else { continue }
            var shown = view
            if case .pullToRefresh(let config)? = view.component?.config,
                let table = config.scrollView.flatMap(scene.view)
            {
                shown = table
            }
            crops[kind] = crop(shown, above: kind == "numberPad" ? Self.popupRise : 0)
        }
        return crops
    }

    /// The tallest part of a view the gallery shows, in points (a 1000 pt table shows its top).
    static let maxCropPoints = 480.0
    /// How far above its view the number pad's popup balloon rises, in points (it grows with the
    /// keys: on the demo's 920 pt pad about 200 pt), so the gallery shows it.
    static let popupRise = 220.0

    /// A PNG's width and height from its header, or nil when it is not a PNG.
    static func pngSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        guard bytes.count >= 24, bytes[1] == 0x50, bytes[2] == 0x4E, bytes[3] == 0x47 else { return nil }
        let word = { (offset: Int) in bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (word(16), word(20))
    }

    private static func pngFiles(in directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".png") }
    }

    private static func write(_ text: String, to path: String) throws {
        let url = URL(fileURLWithPath: path)
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url, options: .atomic)
        } catch {
            throw ReportError(.cannotWrite, "\(path): \(error.localizedDescription)")
        }
    }
}
