import BusSchema
import Foundation
import ServiceSupport

/// `uibus-report`: reads a recording, the frames directory and the supervisor status, writes the HTML report.
public struct ReportCommand {
    public static let usage = """
        usage: uibus-report --recording FILE.mcap [--frames DIR] [--status supervisor.json]
                            --out report.html [--summary-json FILE]
        """
    static let commandLine = CommandLineSpec(verbs: [
        "": [
            .value("recording", "FILE.mcap", "the demo's bus recording"),
            .value("frames", "DIR", "the PNG frames to show"),
            .value("status", "FILE", "the supervisor's status document"), .value("out", "FILE", "the report to write"),
            .value("summary-json", "FILE", "also write the summary as JSON"),
        ]
    ])

    var recordingPath: String
    var framesDirectory: String?
    var statusPath: String?
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
        if let directory = self.framesDirectory {
            for frame in model.keyFrames {
                guard let name = frame.fileName,
                    let data = FileManager.default.contents(atPath: directory + "/" + name)
                else { continue }
                images[name] = "data:image/png;base64," + data.base64EncodedString()
            }
        }
        try Self.write(HTMLReport.render(model, images: images), to: self.outPath)
        if let summaryPath = self.summaryPath { try Self.write(model.summaryJSON.json + "\n", to: summaryPath) }
        return model.summaryText(reportPath: self.outPath)
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
