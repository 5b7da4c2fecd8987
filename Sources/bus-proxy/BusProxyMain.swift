import Bus
import ServiceSupport

/// `bus-proxy [--bus FILE]`: the bus's XSUB/XPUB forwarder.
@main
enum BusProxyMain {
    static func main() {
        let signals = SignalWatcher()
        Tool.main("bus-proxy", usage: "usage: bus-proxy [--bus FILE]") {
            var options = try Options(Array(CommandLine.arguments.dropFirst()))
            let config = try Tool.busConfig(&options)
            try options.finish(maximumPositionals: 0)
            let context = try ZMQContext()
            let proxy = try BusProxy(context: context, config: config)
            defer { proxy.close() }
            try proxy.bind()
            Log.out("ready")
            try proxy.run(wakeDescriptor: signals.descriptor)
        }
    }
}
