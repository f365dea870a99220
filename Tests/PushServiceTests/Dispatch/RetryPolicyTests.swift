import Testing
@testable import PushService
@testable import PushEngine

@Suite(.timeLimit(.minutes(5))) struct RetryPolicyTests {
    let policy = RetryPolicy(initial: .seconds(1), maximum: .seconds(60))

    @Test func doublesPerAttemptWithJitterAroundTheBase() {
        #expect(policy.delay(attempts: 1, suggested: .zero, random: 0.5) == .seconds(1))
        #expect(policy.delay(attempts: 3, suggested: .zero, random: 0.5) == .seconds(4))
        #expect(policy.delay(attempts: 3, suggested: .zero, random: 0) == .seconds(2))
        #expect(policy.delay(attempts: 3, suggested: .zero, random: 0.999) > .milliseconds(5990))
    }

    @Test func honoursALongerRetryAfterAndCapsEverything() {
        #expect(policy.delay(attempts: 1, suggested: .seconds(30), random: 0.5) == .seconds(30))
        #expect(policy.delay(attempts: 1, suggested: .seconds(600), random: 0.5) == .seconds(60))
        #expect(policy.delay(attempts: 40, suggested: .zero, random: 0.5) == .seconds(60))
    }
}
