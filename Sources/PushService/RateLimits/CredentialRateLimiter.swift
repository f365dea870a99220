import Metrics
import PushCore
import Synchronization

/// Each credential's share of the REST API: `apps[].limits.api_token_requests_per_second` per
/// API token (master or secondary), `session_token_requests_per_second` per session token, twice
/// as many in a burst. Beyond it the request is answered 429 with `Retry-After` and Sendbird's
/// error body before any work is done, so one noisy server or device cannot take the relay from
/// its app's other credentials, nor from other apps.
final class CredentialRateLimiter: Sendable {
    struct Key: Hashable {
        let app: ExactID
        /// The SHA-256 of the credential presented.
        let digest: [UInt8]
    }

    /// Credentials tracked at once (~100 bytes each).
    static let maximumKeys = 100_000

    private let table = Mutex(RateLimitTable<Key>(maximumKeys: CredentialRateLimiter.maximumKeys))
    private let refusals = Counter(label: "pushrelay_rate_limited_total")
    private let now: @Sendable () -> Int64

    /// - Parameter nowMicros: a monotonic clock in microseconds.
    init(nowMicros: @escaping @Sendable () -> Int64 = CredentialRateLimiter.monotonicMicros) {
        self.now = nowMicros
    }

    /// Throws 429 when `caller` is over its rate.
    func admit(_ caller: Caller) throws(APIError) {
        let limits = caller.app.limits
        let perSecond =
            if case .sessionToken = caller.credential { limits.sessionTokenRequestsPerSecond } else { limits.apiTokenRequestsPerSecond }
        try admit(app: caller.app, digest: caller.digest, perSecond: perSecond)
    }

    /// Throws 429 when the credential with this digest is over an API token's rate: the
    /// console's requests count against the API token it was opened with, or against a console
    /// user's own budget of the same size.
    func admitServerCredential(app: AppConfiguration, digest: [UInt8]) throws(APIError) {
        try admit(app: app, digest: digest, perSecond: app.limits.apiTokenRequestsPerSecond)
    }

    private func admit(app: AppConfiguration, digest: [UInt8], perSecond: Int) throws(APIError) {
        guard perSecond > 0 else { return }
        let key = Key(app: ExactID(app.appID), digest: digest)
        let nowMicros = now()
        let decision = table.withLock { $0.admit(key, nowMicros: nowMicros, perSecond: perSecond, burst: perSecond * 2) }
        guard case .refuse(let retryAfter) = decision else { return }
        refusals.increment()
        throw APIError(
            status: .tooManyRequests, code: .rateLimitExceeded,
            message: "Rate limit exceeded: this credential may make \(perSecond) requests per second "
                + "(apps[].limits); retry after \(retryAfter) s.",
            retryAfterSeconds: retryAfter)
    }

    @Sendable static func monotonicMicros() -> Int64 {
        let elapsed = ContinuousClock.now - epoch
        return elapsed.components.seconds * 1_000_000 + elapsed.components.attoseconds / 1_000_000_000_000
    }

    private static let epoch = ContinuousClock.now
}
