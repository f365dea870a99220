import MockSupport
import Testing

/// Counted faults add up, are spent one request each, and list what is left.
@Suite(.timeLimit(.minutes(5))) struct FaultCounterTests {
    @Test func aCountAddsUpAndIsSpentOneEach() {
        var counter = FaultCounter()
        counter.arm(2)
        counter.arm(nil)
        counter.arm(-3)
        #expect(counter.armed == 2)
        #expect(counter.take() == true)
        #expect(counter.take() == true)
        #expect(counter.take() == false)
        #expect(counter.armed == nil)
        #expect(counter.isEmpty)
    }

    @Test func theRetryAfterArmedLastHoldsAndANegativeOneCountsAsZero() {
        var counter = RetryAfterCounter()
        counter.arm(RetryAfterFault(count: 1, retryAfter: 5))
        counter.arm(RetryAfterFault(count: 1, retryAfter: -2))
        #expect(counter.armed == RetryAfterFault(count: 2, retryAfter: 0))
        #expect(counter.take() == true)
        #expect(counter.retryAfter == 0)
        #expect(counter.take() == true)
        #expect(counter.take() == false)
        #expect(counter.armed == nil)
        #expect(counter.isEmpty)
    }
}
