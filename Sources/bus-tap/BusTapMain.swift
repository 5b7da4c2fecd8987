import BusTools
import ServiceSupport

/// `bus-tap`: observe and talk to a running bus (see ``BusTap/usage``).
@main
enum BusTapMain {
    static func main() {
        let signals = SignalWatcher()
        Tool.main("bus-tap", usage: BusTap.usage) {
            try BusTap(arguments: Array(CommandLine.arguments.dropFirst()), signals: signals).run()
        }
    }
}
