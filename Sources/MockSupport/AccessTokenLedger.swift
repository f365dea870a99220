/// The access tokens a mock's token endpoint issued and when each expires; what a bearer token is
/// worth at a moment, decided without I/O. A token expired (by its lifetime or `expireAll`) stays
/// known, so a mock can tell it from one never issued (hms-mock: 80200003 against 80200001).
package struct AccessTokenLedger: Sendable {
    package enum Verdict: Sendable, Equatable {
        case valid
        case expired
        case unknown
    }

    /// Unix seconds of each token's expiry.
    private var expiries: [String: Int64] = [:]
    /// Tokens kept at most; past it, the half that expired (or expires) first is forgotten.
    package let limit: Int

    package init(limit: Int = 10_000) {
        self.limit = max(2, limit)
    }

    package var count: Int { expiries.count }

    /// A new token: `prefix`, then 192 random bits in hex.
    package static func mint(prefix: String) -> String {
        prefix + (0..<3).map { _ in String(UInt64.random(in: .min ... .max), radix: 16) }.joined()
    }

    package mutating func issue(_ token: String, now: Int64, lifetimeSeconds: Int) {
        if expiries.count >= limit {
            let kept = expiries.sorted { $0.value > $1.value }.prefix(limit / 2)
            expiries = Dictionary(uniqueKeysWithValues: kept.map { ($0.key, $0.value) })
        }
        expiries[token] = now + Int64(lifetimeSeconds)
    }

    package func verdict(for token: String?, now: Int64) -> Verdict {
        guard let token, let expiry = expiries[token] else { return .unknown }
        return expiry > now ? .valid : .expired
    }

    /// Every token issued so far expires now; later ones are not touched.
    package mutating func expireAll(now: Int64) {
        for token in expiries.keys { expiries[token] = min(expiries[token] ?? now, now) }
    }
}
