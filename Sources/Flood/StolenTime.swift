import Glibc
import ServiceSupport

/// CPU time a hypervisor took from this machine's vCPUs (`steal` in `/proc/stat`): time the
/// machine had work to run and did not run it, which shows in a flood's tail as stalls that no
/// process on the machine caused.
public enum StolenTime {
    /// Milliseconds stolen since boot, over all CPUs; nil where `/proc/stat` cannot be read.
    public static func sinceBootMs() -> Double? {
        guard let text = try? TextFile.read("/proc/stat") else { return nil }
        return Self.milliseconds(procStat: text, ticksPerSecond: Double(sysconf(Int32(_SC_CLK_TCK))))
    }

    /// The `steal` field of the first line of `/proc/stat` text (`cpu`, all CPUs) in milliseconds.
    ///
    /// - Parameter ticksPerSecond: the clock tick the counts are in (`_SC_CLK_TCK`).
    /// - Returns: nil if the first line is not the `cpu` line or has no `steal` field (kernels
    ///   before 2.6.11).
    public static func milliseconds(procStat text: String, ticksPerSecond: Double) -> Double? {
        guard ticksPerSecond > 0, let line = text.split(separator: "\n", maxSplits: 1).first else { return nil }
        let fields = line.split(separator: " ")
        guard fields.first == "cpu", fields.count > 8, let ticks = Double(fields[8]) else { return nil }
        return ticks * 1000 / ticksPerSecond
    }
}
