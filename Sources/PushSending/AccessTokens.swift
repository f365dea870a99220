import LogRedaction
import Synchronization

/// A bearer access token (OAuth 2.0) and when it stops working (Unix seconds). Never in
/// `description` whole.
public struct AccessToken: Sendable, Hashable, CustomStringConvertible {
    public var value: String
    public var expiresAt: Int64

    public init(value: String, expiresAt: Int64) {
        self.value = value
        self.expiresAt = expiresAt
    }

    public var description: String { "access token \(Redaction.redact(value)) (expires at \(expiresAt))" }
}

/// When to fetch a new access token, as a value that decides and a caller that acts, so every
/// rule is tested without I/O: one fetch at a time, a token refreshed `refreshMargin` before it
/// expires, and a token the provider rejected never used again. For providers that send with an
/// OAuth token (HMS; FCM's service account).
public struct AccessTokenState: Sendable, Hashable {
    /// Fetch this long before expiry (seconds), so no send carries a token that expires on the way.
    public static let refreshMargin: Int64 = 300

    public enum Action: Sendable, Hashable {
        /// Send with this token.
        case use(String)
        /// Start a fetch; the caller reports back with `fetched` or `fetchFailed`.
        case fetch
        /// A fetch is under way: wait for it.
        case wait
    }

    private var current: AccessToken?
    private var fetching = false

    public init() {}

    /// What a send needs now (`now`: Unix seconds).
    public mutating func tokenForSend(now: Int64) -> Action {
        if let current, now < current.expiresAt - Self.refreshMargin { return .use(current.value) }
        if fetching { return .wait }
        fetching = true
        return .fetch
    }

    public mutating func fetched(_ token: AccessToken) {
        current = token
        fetching = false
    }

    public mutating func fetchFailed() {
        fetching = false
    }

    /// The provider refused a send that carried `value` (expired or revoked early): that token is
    /// done, unless a newer one replaced it meanwhile, which stays.
    public mutating func rejected(_ value: String) {
        if current?.value == value { current = nil }
    }
}

/// `AccessTokenState` applied: sends ask for a token, at most one fetch runs, and every send
/// waiting for it gets its result.
public final class AccessTokens<Failure: Error>: Sendable {
    private struct Shared {
        var state = AccessTokenState()
        var waiters: [CheckedContinuation<Result<String, Failure>, Never>] = []
    }

    private let shared = Mutex(Shared())
    /// Unix seconds (tests move it to expire tokens).
    private let clock: @Sendable () -> Int64
    private let fetch: @Sendable () async -> Result<AccessToken, Failure>

    /// - Parameter fetch: one token exchange with the provider.
    public init(clock: @escaping @Sendable () -> Int64, fetch: @escaping @Sendable () async -> Result<AccessToken, Failure>) {
        self.clock = clock
        self.fetch = fetch
    }

    /// A token to send with, or why there is none.
    public func token() async -> Result<String, Failure> {
        let now = clock()
        return await withCheckedContinuation { continuation in
            let action = shared.withLock { shared -> AccessTokenState.Action in
                let action = shared.state.tokenForSend(now: now)
                if case .use = action {} else { shared.waiters.append(continuation) }
                return action
            }
            switch action {
            case .use(let value): continuation.resume(returning: .success(value))
            case .wait: break
            case .fetch: Task { await self.refresh() }
            }
        }
    }

    /// The provider refused `value`: the next send fetches a new one.
    public func rejected(_ value: String) {
        shared.withLock { $0.state.rejected(value) }
    }

    /// The client is going away: sends still waiting for a fetch get `failure` now.
    public func shutdown(failing failure: Failure) {
        let waiters = shared.withLock { shared in
            defer { shared.waiters.removeAll() }
            return shared.waiters
        }
        for waiter in waiters { waiter.resume(returning: .failure(failure)) }
    }

    private func refresh() async {
        let result = await fetch()
        let waiters = shared.withLock { shared in
            switch result {
            case .success(let token): shared.state.fetched(token)
            case .failure: shared.state.fetchFailed()
            }
            defer { shared.waiters.removeAll() }
            return shared.waiters
        }
        let outcome = result.map(\.value)
        for waiter in waiters { waiter.resume(returning: outcome) }
    }
}
