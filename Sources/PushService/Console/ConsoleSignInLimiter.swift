import Synchronization

/// Sign-in attempts, limited before any credential is looked at: per client address (the
/// proxy's forwarded one when the proxy is trusted, `ConsoleClient`) and, for a named console
/// user, per name, so neither one client nor many clients guessing one user's password get far.
/// `burst` attempts at once, then one per `intervalSeconds`; beyond that 429 with `Retry-After`.
final class ConsoleSignInLimiter: Sendable {
    static let burst = 10
    static let intervalSeconds: Int64 = 2

    private let table = Mutex(RateLimitTable<String>(maximumKeys: 100_000))
    private let now: @Sendable () -> Int64

    init(nowMicros: @escaping @Sendable () -> Int64 = CredentialRateLimiter.monotonicMicros) {
        now = nowMicros
    }

    /// Throws 429 when the client, or the user name, has tried too often.
    func admit(client: String, user: String) throws(APIError) {
        let nowMicros = now()
        var keys = ["client:" + client]
        if !user.isEmpty { keys.append("user:" + user) }
        for key in keys {
            let decision = table.withLock { table in
                // The table's slowest rate is one a second; on a clock running `interval` times
                // slower, that is one every `interval` seconds.
                table.admit(key, nowMicros: nowMicros / Self.intervalSeconds, perSecond: 1, burst: Self.burst)
            }
            if case .refuse(let retryAfter) = decision {
                throw APIError(
                    status: .tooManyRequests, code: .rateLimitExceeded,
                    message: "Too many sign-in attempts; try again in \(retryAfter * Int(Self.intervalSeconds)) s.",
                    retryAfterSeconds: retryAfter * Int(Self.intervalSeconds))
            }
        }
    }
}
