/// Finds the highest rate a flood sustains cleanly: doubles the rate from `start` until a trial
/// loses something, then halves the interval between the last clean rate and the first unclean
/// one `refinements` times.
///
/// Pure: the caller runs each trial and reports whether it was clean.
public struct RateSearch: Sendable {
    public let limit: Double
    private var growing = true
    private var clean: Double?
    private var unclean: Double?
    private var refinementsLeft: Int
    /// The rate to try next, or nil when the search is over.
    public private(set) var next: Double?

    public init(start: Double = 1000, limit: Double = 4_096_000, refinements: Int = 4) {
        self.limit = limit
        self.refinementsLeft = refinements
        self.next = min(start, limit)
    }

    /// The highest rate that was clean so far.
    public var best: Double? { self.clean }

    /// Takes the outcome of the trial at ``next``.
    public mutating func record(clean wasClean: Bool) {
        guard let rate = self.next else { return }
        if wasClean { self.clean = max(self.clean ?? 0, rate) } else { self.unclean = min(self.unclean ?? rate, rate) }
        if self.growing && wasClean {
            self.next = rate < self.limit ? min(rate * 2, self.limit) : nil
            return
        }
        self.growing = false
        guard self.refinementsLeft > 0, let unclean = self.unclean else {
            self.next = nil
            return
        }
        self.refinementsLeft -= 1
        self.next = (((self.clean ?? 0) + unclean) / 2).rounded()
    }
}
