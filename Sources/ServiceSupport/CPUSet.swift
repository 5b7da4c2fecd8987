/// A set of processor cores, written as on a command line: `0`, `1,3`, `0-3`, `0,2-3`.
public struct CPUSet: Equatable, Sendable, CustomStringConvertible {
    /// One past the highest core a set can name: the kernel's `CPU_SETSIZE`.
    public static let limit = 1024

    /// The cores, ascending, each once.
    public let cores: [Int]

    /// The set of `cores`; numbers outside `0..<limit` are left out.
    public init(_ cores: some Sequence<Int>) {
        self.cores = Set(cores.filter { (0..<Self.limit).contains($0) }).sorted()
    }

    /// Parses a list of cores and ranges separated by commas, like `0,2-3`.
    ///
    /// - Parameter text: the list, as given after `--cpus`.
    /// - Throws: ``UsageError`` naming the part that is not a core number or a range of them.
    public init(parsing text: String) throws {
        var cores: [Int] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let bounds = part.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false).map { Int($0) }
            guard let first = bounds[0], let last = bounds.count == 2 ? bounds[1] : first,
                0 <= first, first <= last, last < Self.limit
            else {
                throw UsageError(
                    "--cpus takes core numbers (0–\(Self.limit - 1)) and ranges like 0,2-3; '\(part)' in '\(text)' is not one"
                )
            }
            cores += first...last
        }
        self.init(cores)
    }

    public var isEmpty: Bool { self.cores.isEmpty }

    /// The cores in both sets.
    public func intersection(_ other: CPUSet) -> CPUSet {
        CPUSet(Set(self.cores).intersection(other.cores))
    }

    /// The cores of this set that `other` lacks.
    public func subtracting(_ other: CPUSet) -> CPUSet {
        CPUSet(Set(self.cores).subtracting(other.cores))
    }

    /// The set as the kernel writes it in `Cpus_allowed_list`: runs of cores as ranges, `0,2-3`.
    public var description: String {
        var parts: [String] = []
        var index = 0
        while index < self.cores.count {
            var end = index
            while end + 1 < self.cores.count, self.cores[end + 1] == self.cores[end] + 1 { end += 1 }
            parts.append(end == index ? "\(self.cores[index])" : "\(self.cores[index])-\(self.cores[end])")
            index = end + 1
        }
        return parts.joined(separator: ",")
    }
}
