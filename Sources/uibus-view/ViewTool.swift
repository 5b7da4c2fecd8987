import BusSchema
import Foundation
import ServiceSupport
import ViewService

/// `uibus-view`: the live UI in a browser (see ViewService and deploy/view/).
///
/// `uibus-view [--bus FILE] [--cpus LIST] [--listen HOST:PORT] [--token-file FILE] [--page DIR]`
/// `[--scene FILE]`
/// serves the page and its WebSocket on `--listen` (default `127.0.0.1:7878`; port 0 picks a
/// free one), prints `listening on http://HOST:PORT/` and then `ready`, and stops cleanly on
/// SIGTERM. The token pages need is in `--token-file` (default `var/view-token`, made 0600 on
/// first start); the page's files come from `--page` (default: `deploy/view` under the working
/// directory, else beside the checkout the executable was built in); `--scene` (default
/// `deploy/scenes/demo.json`) goes to each page for placing the memo editor.
@main
struct ViewTool {
    static let usage = """
        usage: uibus-view [--bus FILE] [--cpus LIST] [--listen HOST:PORT] [--token-file FILE] [--page DIR]
                          [--scene FILE]
        """
    static let defaultPort = 7878
    static let commandLine = CommandLineSpec(verbs: [
        "": [
            .bus, .cpus, .value("listen", "HOST:PORT", "where to serve the page (default 127.0.0.1:7878; port 0: any)"),
            .value("token-file", "FILE", "the pages' access token (default var/view-token, made 0600)"),
            .value("page", "DIR", "the page's files (default deploy/view)"),
            .value("scene", "FILE", "the scene (default deploy/scenes/demo.json)"),
        ]
    ])

    static func main() {
        let signals = SignalWatcher()
        Tool.main("uibus-view", usage: Self.usage) {
            var options = try Self.commandLine.parse(Array(CommandLine.arguments.dropFirst()))
            let config = try Tool.serviceBusConfig(&options, tool: "uibus-view")
            let (host, port) = try Self.address(options.string("listen") ?? "127.0.0.1:\(Self.defaultPort)")
            let tokenPath = options.string("token-file") ?? "var/view-token"
            let page = try options.string("page") ?? Self.pageDirectory()
            let scenePath = options.string("scene") ?? "deploy/scenes/demo.json"
            try options.finish(maximumPositionals: 0)
            let scene: Value
            do {
                scene = try JSONReader.parse(try TextFile.read(scenePath))
            } catch {
                throw ConfigurationError("scene \(scenePath): \(error)")
            }
            // The page gets the document as written, once it is known to be a valid scene.
            _ = try Scene(value: scene, file: scenePath)
            guard FileManager.default.fileExists(atPath: page + "/index.html") else {
                throw ConfigurationError("no index.html in \(page)")
            }
            if host != "127.0.0.1" && host != "localhost" {
                Log.error(
                    "uibus-view",
                    "warning: listening on \(host) without TLS: the token and every frame cross the network in clear")
            }
            let token: String
            do {
                token = try AccessToken.load(tokenPath)
            } catch {
                throw ConfigurationError("\(error)")
            }
            let runner = try ServiceRunner(name: "uibus-view", config: config, signals: signals)
            let service = try ViewService(runner: runner, token: token, pageDirectory: page, scene: scene)
            let bound = try service.listen(host: host, port: port)
            Log.out("listening on http://\(host):\(bound)/ (token in \(tokenPath))")
            try service.run()
        }
    }

    /// `HOST:PORT` split and checked.
    static func address(_ text: String) throws -> (String, Int) {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
            (0...65535).contains(port), colon > text.startIndex
        else { throw UsageError("--listen takes HOST:PORT, not '\(text)'") }
        return (String(text[..<colon]), port)
    }

    /// `deploy/view` under the working directory, else under an ancestor of the executable's
    /// directory (`.build/debug/uibus-view` in a checkout).
    static func pageDirectory() throws -> String {
        var candidates = [FileManager.default.currentDirectoryPath]
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent()
        for _ in 0..<5 {
            candidates.append(directory.path)
            directory = directory.deletingLastPathComponent()
        }
        for candidate in candidates where FileManager.default.fileExists(atPath: candidate + "/deploy/view/index.html")
        {
            return candidate + "/deploy/view"
        }
        throw ConfigurationError("cannot find deploy/view/index.html; give --page DIR")
    }
}
