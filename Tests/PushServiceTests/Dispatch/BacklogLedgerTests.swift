import Testing
@testable import PushService
@testable import PushEngine

@Suite(.timeLimit(.minutes(5))) struct BacklogLedgerTests {
    typealias State = BacklogLedger.State

    @Test func admitsWithinThePromiseAndRefusesBeyondIt() {
        // No measurement yet: the floor (100/s) × 2 s = 200 pushes may wait.
        var state = State(floorPerSecond: 100, maxBacklogMs: 2_000)
        #expect(state.admit(app: "a", count: 200, nowMs: 0) == .admit)
        state.accepted(app: "a", count: 150, atMs: 0)
        #expect(state.admit(app: "a", count: 50, nowMs: 0) == .admit)
        // 150 + 120 = 270: 70 over, at 100/s → 1 s.
        #expect(state.admit(app: "a", count: 120, nowMs: 0) == .refuse(retryAfterSeconds: 1))
        #expect(state.admit(app: "a", count: 500, nowMs: 0) == .refuse(retryAfterSeconds: 5))
        // Another app has its own backlog.
        #expect(state.admit(app: "b", count: 200, nowMs: 0) == .admit)
    }

    /// A notification's fan-out fills at most half of the promise: chat webhooks keep the rest
    /// (a million-user notification to a slow provider must not get the app's messages refused).
    @Test func aFanOutLeavesHalfThePromiseToChat() {
        var state = State(floorPerSecond: 100, maxBacklogMs: 2_000)
        #expect(state.fanOutWait(app: "a", count: 500, nowMs: 0) == nil, "nothing waits: it goes on")
        state.accepted(app: "a", count: 60, atMs: 0)
        #expect(state.fanOutWait(app: "a", count: 40, nowMs: 0) == nil)
        // 60 + 50 is over half of 200: wait for 10 to leave at 100/s (at least 100 ms).
        #expect(state.fanOutWait(app: "a", count: 50, nowMs: 0) == 100)
        #expect(state.fanOutWait(app: "a", count: 500, nowMs: 0) == 4_600)
        #expect(state.fanOutWait(app: "b", count: 50, nowMs: 0) == nil, "another app's queue is its own")
        // Chat is still admitted up to the whole promise.
        #expect(state.admit(app: "a", count: 100, nowMs: 0) == .admit)
    }

    @Test func anEventLargerThanTheAllowanceIsTakenWhenNothingWaits() {
        // 100/s × 1 s = 100 pushes may wait; a 1,000-member event would be refused forever.
        var state = State(floorPerSecond: 100, maxBacklogMs: 1_000)
        #expect(state.admit(app: "a", count: 800, nowMs: 0) == .admit)
        state.accepted(app: "a", count: 800, atMs: 0)
        // Once it waits, the next one waits for it to leave.
        #expect(state.admit(app: "a", count: 800, nowMs: 0) == .refuse(retryAfterSeconds: 15))
    }

    /// On a shared queue other relays send pushes this one counted: only the store's count,
    /// read now and then, brings the running count back down, and it replaces it whole.
    @Test func reconcilingTakesTheStoresCount() {
        var state = State(floorPerSecond: 100, maxBacklogMs: 1_000)
        state.accepted(app: "a", count: 300, atMs: 0)
        state.accepted(app: "b", count: 50, atMs: 0)
        #expect(state.admit(app: "a", count: 10, nowMs: 0) == .refuse(retryAfterSeconds: 3))
        // Another relay sent most of a's; b's are all gone.
        state.reconcile(["a": 40])
        #expect(state.unsent(app: "a") == 40)
        #expect(state.unsent(app: "b") == 0)
        #expect(state.admit(app: "a", count: 10, nowMs: 0) == .admit)
        state.reconcile(["c": 7])
        #expect(state.unsent(app: "c") == 7)
        #expect(state.totalUnsent == 7)
    }

    /// `/metrics`' per-app depth: every app the ledger has seen, gone to 0 when its pushes left.
    @Test func eachAppsUnsentPushesAreReadTogether() {
        let ledger = BacklogLedger(maxBacklog: .seconds(2))
        #expect(ledger.unsentByApp.isEmpty)
        ledger.seed(["quiet": 0])
        ledger.accepted(app: "a", count: 3, atMs: 1_000)
        ledger.accepted(app: "b", count: 1, atMs: 1_000)
        ledger.finished(app: "b", nowMs: 1_500, acceptedAtMs: 1_000)
        #expect(ledger.unsentByApp == ["quiet": 0, "a": 3, "b": 0])
    }

    @Test func capacityIsTheBestSecondOfTheLastTen() {
        var state = State(floorPerSecond: 10, maxBacklogMs: 1_000)
        state.accepted(app: "a", count: 1_000, atMs: 0)
        for n in 0..<400 { state.finished(app: "a", nowMs: 5_000 + Int64(n)) }  // 400 in second 5
        for n in 0..<100 { state.finished(app: "a", nowMs: 6_000 + Int64(n)) }  // 100 in second 6
        #expect(state.capacity(app: "a", nowMs: 6_500) == 400)
        #expect(state.unsent(app: "a") == 500)
        // 500 waiting, 400/s → 1.25 s of backlog: over a 1 s promise.
        #expect(state.admit(app: "a", count: 1, nowMs: 6_500) == .refuse(retryAfterSeconds: 1))
        // Ten seconds later the burst is forgotten: back to the floor.
        #expect(state.capacity(app: "a", nowMs: 16_000) == 10)
    }

    @Test func zeroTurnsAdmissionOffAndSeedingCountsWhatWasLeft() {
        var state = State(floorPerSecond: 1, maxBacklogMs: 0)
        state.seed(["a": 1_000_000])
        #expect(state.admit(app: "a", count: 1_000, nowMs: 0) == .admit)
        #expect(state.totalUnsent == 1_000_000)
        state.finished(app: "a", nowMs: 0)
        #expect(state.totalUnsent == 999_999)
    }

    @Test func theOldestUnsentPushIsTheFirstSecondStillCounted() {
        var state = State(floorPerSecond: 1, maxBacklogMs: 0)
        #expect(state.oldestUnsentMs() == nil)
        state.accepted(app: "a", count: 3, atMs: 1_200)
        state.accepted(app: "b", count: 2, atMs: 5_500)
        #expect(state.oldestUnsentMs() == 1_000)
        // Pushes leave out of order; the age follows the oldest that is still waiting.
        state.finished(app: "b", nowMs: 6_000, acceptedAtMs: 5_500)
        for _ in 0..<3 { state.finished(app: "a", nowMs: 6_000, acceptedAtMs: 1_200) }
        #expect(state.oldestUnsentMs() == 5_000)
        // A clock stepped back: the earlier second goes in order.
        state.accepted(app: "a", count: 1, atMs: 3_000)
        #expect(state.oldestUnsentMs() == 3_000)
        state.finished(app: "a", nowMs: 7_000, acceptedAtMs: 3_000)
        state.finished(app: "b", nowMs: 7_000, acceptedAtMs: 5_500)
        #expect(state.oldestUnsentMs() == nil)
        #expect(state.totalUnsent == 0)
    }

    @Test func theAgeIsSeededFromWhatTheStoreStillHolds() {
        let ledger = BacklogLedger(maxBacklog: .zero)
        ledger.seed(["a": 5], bySecond: [100: 2, 90: 3])
        #expect(ledger.oldestUnsentAgeMs(nowMs: 95_000) == 5_000)
        #expect(BacklogLedger(maxBacklog: .zero).oldestUnsentAgeMs(nowMs: 95_000) == 0)
    }
}
