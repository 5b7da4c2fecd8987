import Glibc
import Synchronization

/// The one thread of a process that looks at every open subscriber's ``ReceiveBudget`` every
/// ``ReceiveBudget/periodMs``. It starts with the first budget and ends when the last is
/// stopped, so a process costs one thread however many subscribers it has, and none without.
enum ReceiveWarden {
    private struct State {
        var budgets: [ReceiveBudget] = []
        var running = false
    }

    private static let state = Mutex(State())

    /// Puts `budget` under watch, starting the thread if none runs.
    ///
    /// - Throws: ``BusError`` if the thread cannot be started.
    static func watch(_ budget: ReceiveBudget) throws {
        let start = Self.state.withLock { state in
            state.budgets.append(budget)
            defer { state.running = true }
            return !state.running
        }
        guard start else { return }
        var thread = pthread_t()
        let started = pthread_create(
            &thread, nil,
            { _ in
                ReceiveWarden.run()
                return nil
            }, nil)
        guard started == 0 else {
            Self.state.withLock { state in
                state.budgets.removeAll { $0 === budget }
                state.running = false
            }
            throw BusError(errno: started, call: "pthread_create")
        }
        pthread_detach(thread)
    }

    /// The thread: a look at every budget each period; a stopped budget is let go (the lock
    /// order is always this state's, then a budget's). While a look takes messages the next
    /// comes after ``ReceiveBudget/drainingPeriodMs``: what arrives between two looks is beyond
    /// the budget, and libzmq's I/O thread fills a stalled queue at the connection's speed.
    private static func run() {
        var draining = false
        while true {
            usleep(UInt32((draining ? ReceiveBudget.drainingPeriodMs : ReceiveBudget.periodMs) * 1000))
            let budgets = Self.state.withLock { state in
                state.budgets.removeAll { $0.isStopped }
                state.running = !state.budgets.isEmpty
                return state.budgets
            }
            if budgets.isEmpty { return }
            draining = false
            for budget in budgets where budget.look() { draining = true }
        }
    }
}
