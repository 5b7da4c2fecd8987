import Glibc
import ServiceSupport
import Supervisor

/// `uibus-supervisor`: starts, watches and stops the UIBus services (see ``SupervisorCommand``).
@main
enum SupervisorMain {
    static func main() {
        // SIGCHLD joins the stop signals: the supervisor reaps children from its poll loop.
        let signals = SignalWatcher(signals: [SIGTERM, SIGINT, SIGHUP, SIGCHLD])
        Tool.main("uibus-supervisor", usage: SupervisorCommand.usage) {
            let status = try SupervisorCommand.run(Array(CommandLine.arguments.dropFirst()), signals: signals)
            if status != 0 { exit(status) }
        }
    }
}
