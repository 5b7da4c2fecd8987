import Bus
import Testing

@Suite struct ByteBudgetTests {
    @Test func smallMessagesKeepTheCountAndALargeOneBringsTheMarkDownToTheBudget() {
        var budget = ByteBudget(bytes: 64 << 20, maximumMessages: 100_000, nowNs: 0)
        #expect(budget.highWaterMark == 100_000)
        #expect(budget.note(200) == nil)
        // 1 MB and its frames: the 2 MB class, 32 of which fill the budget.
        #expect(budget.note((1 << 20) + 100) == 32)
        #expect(budget.note(1 << 20) == nil)
        #expect(budget.highWaterMark * Int32(budget.sizeClass >> 20) == 64)
        // Larger than the budget itself: the mark never goes below its minimum.
        #expect(budget.note(1 << 30) == ByteBudget.minimumMessages)
    }

    @Test func theMarkRisesOnlyAfterAWindowWithoutLargeMessages() {
        var budget = ByteBudget(bytes: 64 << 20, maximumMessages: 100_000, nowNs: 0)
        _ = budget.note(1 << 20)
        #expect(budget.tick(nowNs: ByteBudget.windowNs - 1) == nil)
        // The window that saw the large message ends: it stays.
        #expect(budget.tick(nowNs: ByteBudget.windowNs) == nil)
        #expect(budget.highWaterMark == 64)
        _ = budget.note(100)
        #expect(budget.tick(nowNs: 2 * ByteBudget.windowNs) == 100_000)
    }
}
