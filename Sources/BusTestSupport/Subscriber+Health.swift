import Bus
import BusSchema

extension Subscriber {
    /// A subscriber to the health reports `service` publishes through the proxy at `endpoint`.
    public static func health(of service: String, context: ZMQContext, endpoint: String) throws -> Subscriber {
        try Subscriber(
            context: context, endpoint: endpoint, prefixes: ["sys/health/\(service)/"],
            filter: SchemaFilter([Health.self]))
    }
}
