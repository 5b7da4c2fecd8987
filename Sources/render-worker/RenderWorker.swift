import BusSchema
import RenderCore
import ServiceSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The render worker: the live service on the bus (no verb), or an offline mode.
@main
enum RenderWorker {
    static let usage = """
        usage: render-worker [--bus FILE] [--cpus LIST] [--scene FILE] [--fps N] [--snapshot-every N] [--snapshot-dir DIR]
                             [--scale K] [--threads T] [--image-encoding jpeg|png] [--image-quality Q]
               render-worker blur IN.png OUT.png (--sigma S | --level weak|default|strong) [--threads T]
               render-worker bench-blur --width W --height H --sigma S --runs N [--threads T] [--passes P]
               render-worker bench-encode [--scene FILE] [--runs N]
               render-worker render --scene S [--state STATE.json] OUT.png [--scale K]
               render-worker demo OUT.png [--scene FILE [--memos N]] [--scale S] [--runs N] [--threads T]
        """

    static func main() {
        let missing = CPUCheck.missing()
        if !missing.isEmpty {
            fail(
                "render-worker: this release build needs a CPU with \(CPUCheck.required.joined(separator: ", "))"
                    + " (x86-64-v3); missing \(missing.joined(separator: ", ")). Build with `swift build` (debug)"
                    + " or drop -target-cpu from RenderCore in Package.swift.", status: 1)
        }
        let arguments = CommandLine.arguments
        if arguments.count < 2 || (arguments[1].hasPrefix("--") && arguments[1] != "--help") {
            let signals = SignalWatcher()
            Tool.main("render-worker", usage: usage) {
                try LiveCommand.run(Array(arguments.dropFirst()), signals: signals)
            }
        }
        do {
            // The verb leads, so that `render-worker VERB --help` shows that verb.
            var options = try Options(Array(arguments.dropFirst()))
            switch arguments[1] {
            case "blur": try BlurCommand.run(&options)
            case "bench-blur": print(try BenchBlur.run(&options))
            case "bench-encode": print(try BenchEncode.run(&options))
            case "demo": print(try DemoCommand.run(&options))
            case "render": try RenderCommand.run(&options)
            case "-h", "--help", "help": print(usage)
            default: fail("unknown command '\(arguments[1])'\n\(usage)", status: Tool.usageStatus)
            }
        } catch let request as HelpRequest {
            print(request.text(usage: usage, tool: "render-worker"))
        } catch is VersionRequest {
            print("render-worker \(Tool.version)")
        } catch let error as UsageError {
            fail("render-worker: \(error.description)", status: Tool.usageStatus)
        } catch let error as SceneError {
            fail("render-worker: \(error)", status: Tool.dataErrorStatus)
        } catch {
            fail("render-worker: \(error)", status: 1)
        }
    }

    static func fail(_ message: String, status: Int32) -> Never {
        let line = Array((message + "\n").utf8)
        _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
        exit(status)
    }
}
