import Flood
import ServiceSupport

/// `bus-flood`: floods a running bus and measures loss and latency (see ``BusFlood/usage``).
@main
enum BusFloodMain {
    static func main() {
        Tool.main("bus-flood", usage: BusFlood.usage) {
            try BusFlood(arguments: Array(CommandLine.arguments.dropFirst())).run()
        }
    }
}
