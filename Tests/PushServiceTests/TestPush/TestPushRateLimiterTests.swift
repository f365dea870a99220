import ConfigSupport
import Synchronization
import Testing
@testable import PushService

/// `apps[].limits.test_pushes_per_minute`, on a clock the test moves.
@Suite(.timeLimit(.minutes(5))) struct TestPushRateLimiterTests {
    final class Clock: Sendable {
        let micros = Mutex<Int64>(0)
        func advance(seconds: Int64) { micros.withLock { $0 += seconds * 1_000_000 } }
    }

    static func app(_ id: String, perMinute: Int) -> AppConfiguration {
        var app = AppConfiguration(appID: id, apiToken: Secret("token-\(id)-0123456789abcdef"))
        app.limits.testPushesPerMinute = perMinute
        return app
    }

    @Test func aMinutesWorthAtOnceThenOneEverySixtyOverNSeconds() throws {
        let clock = Clock()
        let limiter = TestPushRateLimiter(nowMicros: { clock.micros.withLock { $0 } })
        let app = Self.app("A", perMinute: 3)
        for _ in 0..<3 { try limiter.admit(app) }
        do {
            try limiter.admit(app)
            Issue.record("a fourth within the minute was let through")
        } catch {
            #expect(error.status == .tooManyRequests && error.code == .rateLimitExceeded)
            #expect(error.retryAfterSeconds == 20)
        }
        try limiter.admit(Self.app("B", perMinute: 3))
        clock.advance(seconds: 20)
        try limiter.admit(app)
        #expect(throws: APIError.self) { try limiter.admit(app) }
        for _ in 0..<100 { try limiter.admit(Self.app("C", perMinute: 0)) }
    }
}
