import Testing
@testable import PushService

/// The rate decisions, with plain numbers for time (µs).
@Suite(.timeLimit(.minutes(5))) struct RateLimitTableTests {
    @Test func aBurstThenTheSustainedRate() {
        var table = RateLimitTable<String>(maximumKeys: 10)
        // 2 a second, 4 at once.
        for _ in 0..<4 { #expect(table.admit("k", nowMicros: 0, perSecond: 2, burst: 4) == .allow) }
        #expect(table.admit("k", nowMicros: 0, perSecond: 2, burst: 4) == .refuse(retryAfterSeconds: 1))
        #expect(table.admit("other", nowMicros: 0, perSecond: 2, burst: 4) == .allow, "keys are apart")
        // Half a second later one more fits, not two.
        #expect(table.admit("k", nowMicros: 500_000, perSecond: 2, burst: 4) == .allow)
        #expect(table.admit("k", nowMicros: 500_000, perSecond: 2, burst: 4) == .refuse(retryAfterSeconds: 1))
        // Idle long enough, the whole burst is back.
        for _ in 0..<4 { #expect(table.admit("k", nowMicros: 10_000_000, perSecond: 2, burst: 4) == .allow) }
    }

    @Test func retryAfterSaysWhenRoomComesBack() {
        var table = RateLimitTable<String>(maximumKeys: 10)
        #expect(table.admit("k", nowMicros: 0, perSecond: 1, burst: 1) == .allow)
        #expect(table.admit("k", nowMicros: 0, perSecond: 1, burst: 1) == .refuse(retryAfterSeconds: 1))
        #expect(table.admit("k", nowMicros: 999_999, perSecond: 1, burst: 1) == .refuse(retryAfterSeconds: 1))
        #expect(table.admit("k", nowMicros: 1_000_000, perSecond: 1, burst: 1) == .allow)
        #expect(table.admit("k", nowMicros: 0, perSecond: 0, burst: 0) == .allow, "0: no limit")
    }

    /// Rates below one a second (test pushes per minute): one per interval, a burst at once.
    @Test func aSlowerRateByItsInterval() {
        var table = RateLimitTable<String>(maximumKeys: 10)
        for _ in 0..<10 { #expect(table.admit("k", nowMicros: 0, intervalMicros: 6_000_000, burst: 10) == .allow) }
        #expect(table.admit("k", nowMicros: 0, intervalMicros: 6_000_000, burst: 10) == .refuse(retryAfterSeconds: 6))
        #expect(table.admit("k", nowMicros: 5_000_000, intervalMicros: 6_000_000, burst: 10) == .refuse(retryAfterSeconds: 1))
        #expect(table.admit("k", nowMicros: 6_000_000, intervalMicros: 6_000_000, burst: 10) == .allow)
        #expect(table.admit("k", nowMicros: 6_000_000, intervalMicros: 6_000_000, burst: 10) == .refuse(retryAfterSeconds: 6))
    }

    /// Bounded: keys whose bucket is full again are dropped to make room; a table full of keys
    /// all being limited lets a new key through untracked rather than grow.
    @Test func theTableStaysWithinItsBound() {
        var table = RateLimitTable<Int>(maximumKeys: 3)
        for key in 0..<3 { #expect(table.admit(key, nowMicros: 0, perSecond: 1, burst: 1) == .allow) }
        #expect(table.admit(3, nowMicros: 0, perSecond: 1, burst: 1) == .allow)
        #expect(table.count == 3)
        // A second on, the old buckets are full again: they go, the new key is tracked.
        #expect(table.admit(4, nowMicros: 2_000_000, perSecond: 1, burst: 1) == .allow)
        #expect(table.count == 1)
        #expect(table.admit(4, nowMicros: 2_000_000, perSecond: 1, burst: 1) == .refuse(retryAfterSeconds: 1))
    }

    /// A request costing several units spends them at once: 10 a second, 20 at once, and a list
    /// of 8 leaves room for 12 more units.
    @Test func aCostlyRequestSpendsItsUnits() {
        var table = RateLimitTable<String>(maximumKeys: 10)
        #expect(table.admit("k", nowMicros: 0, perSecond: 10, burst: 20, cost: 8) == .allow)
        #expect(table.admit("k", nowMicros: 0, perSecond: 10, burst: 20, cost: 8) == .allow)
        #expect(table.admit("k", nowMicros: 0, perSecond: 10, burst: 20, cost: 8) == .refuse(retryAfterSeconds: 1))
        for _ in 0..<4 { #expect(table.admit("k", nowMicros: 0, perSecond: 10, burst: 20) == .allow) }
        #expect(table.admit("k", nowMicros: 0, perSecond: 10, burst: 20) == .refuse(retryAfterSeconds: 1))
        // One costing more than the burst goes when the bucket is full, and leaves it owing: its
        // 50 units take 5 s to come back, the first 1.9 s of which the burst covers.
        #expect(table.admit("big", nowMicros: 0, perSecond: 10, burst: 20, cost: 50) == .allow)
        #expect(table.admit("big", nowMicros: 0, perSecond: 10, burst: 20) == .refuse(retryAfterSeconds: 4))
        #expect(table.admit("big", nowMicros: 3_000_000, perSecond: 10, burst: 20) == .refuse(retryAfterSeconds: 1))
        #expect(table.admit("big", nowMicros: 3_100_000, perSecond: 10, burst: 20) == .allow)
    }
}
