import Metrics
import PushCore
import Synchronization

/// Each app's share of the REST API and console, charged by what each request costs
/// (`RequestCost`): `apps[].limits.api_token_requests_per_second` units a second for all of the
/// app's server credentials together (its master and secondary API tokens and console sessions:
/// twenty tokens do not make twenty budgets), `session_token_requests_per_second` per session
/// token (a device's own calls, which cannot spend the app's servers' budget), twice as many in a
/// burst. Beyond it the request is answered 429 with `Retry-After` and Sendbird's error body before
/// any work is done, so one app's costly reads cannot take the relay from the others.
final class CredentialRateLimiter: Sendable {
    struct Key: Hashable {
        let app: ExactID
        /// The SHA-256 of the session token; nil for the app's server credentials together.
        let session: [UInt8]?
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

    /// Throws 429 when `caller`'s budget (its app's servers', or its session's) lacks `cost` units.
    /// A session token pays one per request: it reads only its own user's rows.
    func admit(_ caller: Caller, cost: Int = 1) throws(APIError) {
        if case .sessionToken = caller.credential {
            try admit(
                Key(app: ExactID(caller.app.appID), session: caller.digest), perSecond: caller.app.limits.sessionTokenRequestsPerSecond,
                cost: 1, whose: "this session token")
        } else {
            try admitServer(app: caller.app, cost: cost)
        }
    }

    /// Throws 429 when the app's server budget lacks `cost` units: the console's requests spend it
    /// too, whoever signed in.
    func admitServer(app: AppConfiguration, cost: Int = 1) throws(APIError) {
        try admit(
            Key(app: ExactID(app.appID), session: nil), perSecond: app.limits.apiTokenRequestsPerSecond, cost: cost,
            whose: "the app's API tokens and console together")
    }

    private func admit(_ key: Key, perSecond: Int, cost: Int, whose: String) throws(APIError) {
        guard perSecond > 0 else { return }
        let nowMicros = now()
        let decision = table.withLock { $0.admit(key, nowMicros: nowMicros, perSecond: perSecond, burst: perSecond * 2, cost: cost) }
        guard case .refuse(let retryAfter) = decision else { return }
        refusals.increment()
        throw APIError(
            status: .tooManyRequests, code: .rateLimitExceeded,
            message: "Rate limit exceeded: \(whose) may spend \(perSecond) request units per second (apps[].limits; "
                + "this request costs \(cost)); retry after \(retryAfter) s.",
            retryAfterSeconds: retryAfter)
    }

    @Sendable static func monotonicMicros() -> Int64 {
        let elapsed = ContinuousClock.now - epoch
        return elapsed.components.seconds * 1_000_000 + elapsed.components.attoseconds / 1_000_000_000_000
    }

    private static let epoch = ContinuousClock.now
}
