import Bus
import Glibc
import ServiceSupport

/// `bus-proxy [--bus FILE] [--cpus LIST]`: the bus's XSUB/XPUB forwarder.
/// `bus-proxy keys [--dir DIR] [CLIENT …]`: CURVE keys for a bus that crosses machines.
@main
enum BusProxyMain {
    static let usage = """
        usage: bus-proxy [--bus FILE] [--cpus LIST]
               bus-proxy keys [--dir DIR] [CLIENT …]   the server's and each client's CURVE key pair
                                                       (default: var/keys, one client named "client"),
                                                       clients added to DIR/allowed_clients; existing keys are kept
        """
    static let commandLine = CommandLineSpec(verbs: [
        "": [.bus, .cpus], "keys": [.value("dir", "DIR", "where the keys are written (default var/keys)")],
    ])

    static func main() {
        let signals = SignalWatcher()
        Tool.main("bus-proxy", usage: Self.usage) {
            var options = try Self.commandLine.parse(Array(CommandLine.arguments.dropFirst()))
            if options.verb == "keys" {
                let directory = options.string("dir") ?? "var/keys"
                try options.finish(maximumPositionals: .max)
                let clients = Array(options.positionals.dropFirst())
                for line in try CurveKeyFiles.make(
                    directory: directory, clients: clients.isEmpty ? ["client"] : clients)
                {
                    Log.out("wrote \(line)")
                }
                return
            }
            let config = try Tool.serviceBusConfig(&options, tool: "bus-proxy")
            try options.finish(maximumPositionals: 0)
            let keys: CurveServerKeys?
            do {
                keys = try config.curve?.serverKeys()
            } catch {
                throw ConfigurationError("\(error)")
            }
            let proxy = try BusProxy(context: try ZMQContext(), config: config, curve: keys)
            defer { proxy.close() }
            try proxy.bind()
            let heartbeat = Heartbeat.start(epoch: proxy.epoch)
            Log.info(
                "bus-proxy",
                "starting: pid \(getpid()), epoch \(proxy.epoch), publish \(config.publish), "
                    + "subscribe \(config.subscribe), CURVE \(keys == nil ? "off" : "on")")
            Log.out("ready")
            // The loop asks shouldStop once a turn: that is where its turns are counted.
            try proxy.run(wakeDescriptor: signals.descriptor) {
                heartbeat?.loopTurns.wrappingAdd(1, ordering: .relaxed)
                return false
            }
        }
    }
}
