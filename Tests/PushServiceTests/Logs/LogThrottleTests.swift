import Testing
@testable import PushService

@Suite(.timeLimit(.minutes(5))) struct LogThrottleTests {
    @Test func oneLinePerKeyAndIntervalAndTheNextSaysHowManyWereHeldBack() {
        let throttle = LogThrottle(interval: .seconds(1))
        #expect(throttle.admit("bad_signature", nowMs: 10_000) == 0)
        #expect(throttle.admit("bad_signature", nowMs: 10_001) == nil)
        #expect(throttle.admit("bad_signature", nowMs: 10_999) == nil)
        // Other keys are independent.
        #expect(throttle.admit("unknown_app", nowMs: 10_500) == 0)
        #expect(throttle.admit("bad_signature", nowMs: 11_000) == 2)
        #expect(throttle.admit("bad_signature", nowMs: 12_500) == 0)
    }
}
