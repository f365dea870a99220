/// Why an HMS send got no answer from `messages:send`.
public enum HMSError: Error, Sendable, CustomStringConvertible {
    /// No connection, a reset, a timeout: worth another try.
    case transport(String)
    /// The OAuth endpoint refused the app's id and secret (or gave no token): an operator must act.
    case accessTokenRefused(status: Int, reason: String)
    /// The client is shut down.
    case shutdown

    public var isRetryable: Bool {
        if case .transport = self { return true }
        return false
    }

    public var description: String {
        switch self {
        case .transport(let why): "no answer from HMS: \(why)"
        case .accessTokenRefused(let status, let reason): "HMS's token endpoint refused the app's credentials (\(status)): \(reason)"
        case .shutdown: "the HMS client is shut down"
        }
    }
}
