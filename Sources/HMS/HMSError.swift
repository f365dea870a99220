/// Why an HMS send got no answer from `messages:send`.
public enum HMSError: Error, Sendable, CustomStringConvertible {
    /// No connection, a reset, a timeout: worth another try.
    case transport(String)
    /// No access token: the OAuth endpoint refused the app's id and secret (an operator must
    /// act), or was unreachable or failing (status 0, 429, 5xx: the moment, not the credentials).
    case accessTokenRefused(status: Int, reason: String)
    /// The client is shut down.
    case shutdown

    public var isRetryable: Bool {
        switch self {
        case .transport: true
        case .accessTokenRefused(let status, _): status == 0 || status == 429 || status >= 500
        case .shutdown: false
        }
    }

    public var description: String {
        switch self {
        case .transport(let why): "no answer from HMS: \(why)"
        case .accessTokenRefused(let status, let reason):
            isRetryable
                ? "no HMS access token (\(status)): \(reason)" : "HMS's token endpoint refused the app's credentials (\(status)): \(reason)"
        case .shutdown: "the HMS client is shut down"
        }
    }
}
