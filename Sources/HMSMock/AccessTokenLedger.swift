/// The access tokens the token endpoint issued and when each expires; what a bearer token is worth
/// at a moment, decided without I/O. A token expired (by its lifetime or `expireAll`) stays known,
/// so it is told apart from one never issued: 80200003 against 80200001.
struct AccessTokenLedger: Sendable {
    enum Verdict: Sendable, Equatable {
        case valid
        case expired
        case unknown
    }

    /// Unix seconds of each token's expiry.
    private var expiries: [String: Int64] = [:]
    /// Tokens kept at most; past it, the half that expired (or expires) first is forgotten.
    let limit: Int

    init(limit: Int = 10_000) {
        self.limit = max(2, limit)
    }

    var count: Int { expiries.count }

    mutating func issue(_ token: String, now: Int64, lifetimeSeconds: Int) {
        if expiries.count >= limit {
            let kept = expiries.sorted { $0.value > $1.value }.prefix(limit / 2)
            expiries = Dictionary(uniqueKeysWithValues: kept.map { ($0.key, $0.value) })
        }
        expiries[token] = now + Int64(lifetimeSeconds)
    }

    func verdict(for token: String?, now: Int64) -> Verdict {
        guard let token, let expiry = expiries[token] else { return .unknown }
        return expiry > now ? .valid : .expired
    }

    /// Every token issued so far expires now (answered 80200003 from now on).
    mutating func expireAll(now: Int64) {
        for token in expiries.keys { expiries[token] = min(expiries[token] ?? now, now) }
    }
}
