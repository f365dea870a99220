import Crypto
import Foundation
import PushStore
import StoreContract
import Synchronization

/// Sign-in attempts, limited before any credential is looked at: per client address (the
/// proxy's forwarded one when the proxy is trusted, `ConsoleClient`) and, for a named console
/// user, per name — so neither one client nor many clients guessing one user's password get far.
/// A browser presenting a device cookie valid for that name (`ConsoleDeviceCookie`: it signed in
/// as the user before) is limited per cookie instead, so guesses from elsewhere, which exhaust the
/// name's limit, cannot lock the user out of their own browser.
/// `burst` attempts at once, then one per `intervalSeconds`; beyond that 429 with `Retry-After`.
final class ConsoleSignInLimiter: Sendable {
    static let burst = 10
    static let intervalSeconds: Int64 = 2

    private let table = Mutex(RateLimitTable<String>(maximumKeys: 100_000))
    private let now: @Sendable () -> Int64

    init(nowMicros: @escaping @Sendable () -> Int64 = CredentialRateLimiter.monotonicMicros) {
        now = nowMicros
    }

    /// Throws 429 when the client, or the user name (or the browser's device cookie for it), has
    /// tried too often. `trustedDevice` is the request's device cookie when it is valid for `user`.
    func admit(client: String, user: String, trustedDevice: String? = nil) throws(APIError) {
        let nowMicros = now()
        for key in Self.keys(client: client, user: user, trustedDevice: trustedDevice) {
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

    /// The budgets one attempt spends: its address's, and a named user's (shared by every
    /// untrusted client) or, from a trusted browser, that browser's own.
    static func keys(client: String, user: String, trustedDevice: String?) -> [String] {
        var keys = ["client:" + client]
        guard !user.isEmpty else { return keys }
        if let trustedDevice {
            keys.append("device:" + CredentialIssuer.hex(SHA256.hash(data: Data(trustedDevice.utf8))))
        } else {
            keys.append("user:" + user)
        }
        return keys
    }
}
