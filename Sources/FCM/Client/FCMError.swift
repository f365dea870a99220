import HTTP2Transport

/// Failures where FCM gave no answer to a send.
public enum FCMError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No access token: the token endpoint refused the service account (`invalid_grant`: a
    /// revoked or wrong key) or answered nothing usable.
    case accessTokenRefused(status: Int, reason: String)
    /// The credentials could not be used at all (signing failed).
    case credentials(FCMCredentialError)
    /// The HTTP/2 transport's failure (timeout, lost connection, connect failure, shutdown).
    case transport(HTTP2TransportError)

    /// Whether the same send may succeed later.
    public var isRetryable: Bool {
        switch self {
        case .accessTokenRefused(let status, _): status == 0 || status == 429 || status >= 500
        case .credentials: false
        case .transport(let error): error.isRetryable
        }
    }

    /// The credentials, not the moment, are at fault: an operator must act.
    public var isCredentialError: Bool {
        switch self {
        case .accessTokenRefused: !isRetryable
        case .credentials: true
        case .transport: false
        }
    }

    public var description: String {
        switch self {
        case .accessTokenRefused(let status, let reason):
            status == 0 ? "no OAuth access token: \(reason)" : "the token endpoint refused the service account (HTTP \(status)): \(reason)"
        case .credentials(let error): "\(error)"
        case .transport(let error): "FCM: \(error)"
        }
    }
}
