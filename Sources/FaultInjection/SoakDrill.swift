import Bus
import BusSchema
import Foundation
import Glibc
import ServiceSupport

/// A long run of the whole stack at a realistic load with a random fault every few seconds:
/// each service in turn killed (SIGKILL), paused (SIGSTOP, then SIGCONT) or restarted through
/// the supervisor (`uibus-supervisor restart`), while the memo driver and the drill's
/// subscribers (a viewer of every hop, frames included) keep going.
///
/// It checks what a long life must not show: an acknowledged memo lost or applied twice, the
/// stack stopping (the supervisor gone or a service marked failed), and growth of each
/// service's memory or descriptors (the median of the first minute against the last).
public final class SoakDrill {
    public struct Plan: Sendable {
        public var durationMs = 600_000
        /// A fault comes after a random wait in this range.
        public var faultIntervalMs = 2000...5000
        /// A pause lasts a random time in this range (past the 3 s watchdog, the supervisor kills it).
        public var pauseMs = 500...4000
        public var sampleEveryMs = 5000
        /// The windows compared for growth.
        public var windowMs = 60_000

        public init() {}
    }

    /// One sample of a service's process.
    public struct Sample: Sendable {
        public var atMs: Int
        public var pid: Int
        public var rssKiB: Int
        public var descriptors: Int
    }

    public let drill: FaultDrill
    public let plan: Plan
    /// Progress lines, for a terminal.
    public var log: (String) -> Void = { _ in }

    public init(drill: FaultDrill, plan: Plan) {
        self.drill = drill
        self.plan = plan
    }

    /// Runs the soak and returns its report as JSON.
    ///
    /// - Throws: ``FaultDrill/Failure`` when the stack cannot start or stop.
    public func run() throws -> SoakReport {
        defer { self.drill.killSupervisorIfRunning() }
        let pump = try self.drill.startStack()
        let services = FaultPlan.stack.map(\.name)
        var report = SoakReport(services: services)
        var random = SystemRandomNumberGenerator()
        let startNs = Clock.monotonicNs()
        let elapsedMs = { Int((Clock.monotonicNs() - startNs) / 1_000_000) }
        var nextSampleMs = 0
        var restart: Process?
        let sample = {
            report.samples.append(contentsOf: self.sample(services, atMs: elapsedMs()))
            if self.drill.supervisor?.isRunning != true { report.supervisorStopped = true }
            for service in services where (try? self.drill.serviceStatus(service))?["state"] == .string("failed") {
                report.failedSeen.insert(service)
            }
        }
        while elapsedMs() < self.plan.durationMs {
            let waitMs = Int.random(in: self.plan.faultIntervalMs, using: &random)
            let faultAtMs = elapsedMs() + waitMs
            while elapsedMs() < faultAtMs {
                try pump.run(forMs: max(0, min(faultAtMs, nextSampleMs) - elapsedMs()))
                if elapsedMs() >= nextSampleMs {
                    sample()
                    nextSampleMs += self.plan.sampleEveryMs
                }
            }
            if let process = restart, process.isRunning { continue }
            restart = nil
            let running = services.filter { (try? self.drill.serviceStatus($0))?["state"] == .string("running") }
            guard let service = running.randomElement(using: &random),
                let pid = (try? self.drill.serviceStatus(service))?["pid"]?.intValue
            else { continue }
            switch Int.random(in: 0..<3, using: &random) {
            case 0:
                kill(-Int32(pid), SIGKILL)
                report.count("SIGKILL", service)
            case 1:
                kill(-Int32(pid), SIGSTOP)
                try pump.run(forMs: Int.random(in: self.plan.pauseMs, using: &random))
                kill(-Int32(pid), SIGCONT)
                report.count("SIGSTOP/SIGCONT", service)
            default:
                restart = try self.drill.supervisorVerb(["restart", service])
                report.count("restart", service)
            }
            if report.faultCount % 20 == 0 { self.log("\(elapsedMs() / 1000) s: \(report.faultCount) faults") }
        }
        sample()
        report.durationMs = elapsedMs()
        report.windowMs = self.plan.windowMs
        // A service killed again and again backs off up to 30 s: the memo driver's last commands
        // are acknowledged once every service is back, which is waited for first.
        try pump.run(forMs: 60_000) {
            services.allSatisfy { (try? self.drill.serviceStatus($0))?["state"] == .string("running") }
        }
        let end = try self.drill.finish(pump)
        report.memo = end.memo
        report.supervisorExit = end.supervisorExit
        // The status file outlives the supervisor: its last word on each service's restarts.
        for service in services {
            report.restarts[service] = Int((try? self.drill.serviceStatus(service))?["restarts"]?.intValue ?? 0)
        }
        return report
    }

    /// Each running service's resident memory and open descriptors, from `/proc`.
    private func sample(_ services: [String], atMs: Int) -> [(service: String, sample: Sample)] {
        services.compactMap { service in
            guard let status = try? self.drill.serviceStatus(service), status["state"] == .string("running"),
                let pid = status["pid"]?.intValue,
                let text = try? TextFile.read("/proc/\(pid)/status"),
                let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
                let rss = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? ""),
                let descriptors = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count
            else { return nil }
            return (service, Sample(atMs: atMs, pid: Int(pid), rssKiB: rss, descriptors: descriptors))
        }
    }
}
