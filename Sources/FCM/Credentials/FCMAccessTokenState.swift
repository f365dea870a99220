/// When to fetch a new access token, as a value that decides and a caller that acts (the way
/// AsyncHTTPClient's pool state machine is written), so every rule is tested without I/O:
/// one fetch at a time, a token refreshed `refreshMargin` before it expires, and a token FCM
/// rejected (401) never used again.
public struct FCMAccessTokenState: Sendable, Hashable {
    /// Fetch this long before expiry, so no send carries a token that expires on the way.
    public static let refreshMargin: Int64 = 300

    public enum Action: Sendable, Hashable {
        /// Send with this token.
        case use(String)
        /// Start a fetch; the caller reports back with `fetched` or `fetchFailed`.
        case fetch
        /// A fetch is under way: wait for it.
        case wait
    }

    private var current: FCMAccessToken?
    private var fetching = false

    public init() {}

    /// What a send needs now (`now`: Unix seconds).
    public mutating func tokenForSend(now: Int64) -> Action {
        if let current, now < current.expiresAt - Self.refreshMargin { return .use(current.value) }
        if fetching { return .wait }
        fetching = true
        return .fetch
    }

    public mutating func fetched(_ token: FCMAccessToken) {
        current = token
        fetching = false
    }

    public mutating func fetchFailed() {
        fetching = false
    }

    /// FCM answered 401 to a send that carried `value`: that token is done (unless a newer one
    /// replaced it meanwhile, which stays).
    public mutating func rejected(_ value: String) {
        if current?.value == value { current = nil }
    }
}
