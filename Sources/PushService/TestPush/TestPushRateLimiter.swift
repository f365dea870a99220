import PushCore
import Synchronization

/// Each app's test pushes (`apps[].limits.test_pushes_per_minute`), whichever credential asks:
/// that many at once, then one every `60 / n` seconds; beyond, 429 with Retry-After before
/// anything is looked up or sent. The decision is `RateLimitTable`'s.
final class TestPushRateLimiter: Sendable {
    /// Apps come from the configuration; the bound only keeps the table finite.
    static let maximumKeys = 4_096

    private let table = Mutex(RateLimitTable<ExactID>(maximumKeys: TestPushRateLimiter.maximumKeys))
    private let now: @Sendable () -> Int64

    /// - Parameter nowMicros: a monotonic clock in microseconds.
    init(nowMicros: @escaping @Sendable () -> Int64 = CredentialRateLimiter.monotonicMicros) {
        now = nowMicros
    }

    /// Throws 429 when `app` has sent its test pushes for now.
    func admit(_ app: AppConfiguration) throws(APIError) {
        let perMinute = app.limits.testPushesPerMinute
        guard perMinute > 0 else { return }
        let nowMicros = now()
        let decision = table.withLock {
            $0.admit(ExactID(app.appID), nowMicros: nowMicros, intervalMicros: 60_000_000 / Int64(perMinute), burst: perMinute)
        }
        guard case .refuse(let retryAfter) = decision else { return }
        throw APIError(
            status: .tooManyRequests, code: .rateLimitExceeded,
            message: "Rate limit exceeded: the app may send \(perMinute) test pushes a minute "
                + "(apps[].limits.test_pushes_per_minute); retry after \(retryAfter) s.",
            retryAfterSeconds: retryAfter)
    }
}
