import CLinux
import Glibc

/// Where this process's threads may run: read and set through the kernel's affinity masks.
///
/// A process pins itself (not a supervisor from outside) because the kernel keeps one mask per
/// thread: setting the process id's mask from outside moves only the main thread, not the ZeroMQ
/// I/O threads it already started.
public enum CPUPlacement {
    /// Words of a mask: one bit per core below ``CPUSet/limit``.
    private static let maskWords = CPUSet.limit / UInt.bitWidth

    /// The cores the calling thread may run on. The corresponding C function is `sched_getaffinity`.
    ///
    /// - Throws: ``ConfigurationError`` if the kernel does not say.
    public static func allowed() throws -> CPUSet {
        var mask = [UInt](repeating: 0, count: Self.maskWords)
        let filled = mask.withUnsafeMutableBufferPointer {
            clinux_sched_getaffinity(0, $0.count * MemoryLayout<UInt>.size, $0.baseAddress!)
        }
        guard filled > 0 else { throw ConfigurationError("sched_getaffinity: \(String(cString: strerror(errno)))") }
        return CPUSet((0..<CPUSet.limit).filter { mask[$0 / UInt.bitWidth] & (1 << ($0 % UInt.bitWidth)) != 0 })
    }

    /// Pins every thread of this process to `cores`; threads started later inherit it.
    ///
    /// The corresponding C function is `sched_setaffinity`, once per thread of `/proc/self/task`.
    /// - Parameter cores: a non-empty set of cores this process may use (see ``allowed()``).
    /// - Throws: ``ConfigurationError`` naming the thread and the kernel's reason if one cannot be moved.
    public static func pin(to cores: CPUSet) throws {
        var mask = [UInt](repeating: 0, count: Self.maskWords)
        for core in cores.cores { mask[core / UInt.bitWidth] |= 1 << (core % UInt.bitWidth) }
        for thread in try Self.threads() {
            let result = mask.withUnsafeBufferPointer {
                clinux_sched_setaffinity(thread, $0.count * MemoryLayout<UInt>.size, $0.baseAddress!)
            }
            // A thread that ended since the listing (ESRCH) needs no mask.
            if result != 0 && errno != ESRCH {
                throw ConfigurationError(
                    "sched_setaffinity(thread \(thread), cores \(cores)): \(String(cString: strerror(errno)))")
            }
        }
    }

    /// The thread ids of this process, from `/proc/self/task`. The C functions are `opendir` and `readdir`.
    private static func threads() throws -> [Int32] {
        guard let directory = opendir("/proc/self/task") else {
            throw ConfigurationError("cannot list /proc/self/task: \(String(cString: strerror(errno)))")
        }
        defer { closedir(directory) }
        var threads: [Int32] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if let thread = Int32(name) { threads.append(thread) }
        }
        return threads
    }
}
