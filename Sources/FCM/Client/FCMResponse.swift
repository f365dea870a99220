/// FCM's answer to one `messages:send`.
public struct FCMResponse: Sendable, Hashable {
    public var status: Int
    /// On success: the message's name, `projects/{project}/messages/{id}`.
    public var messageName: String?
    /// On failure: FCM's error.
    public var error: FCMErrorResponse?

    public init(status: Int, messageName: String? = nil, error: FCMErrorResponse? = nil) {
        self.status = status
        self.messageName = messageName
        self.error = error
    }

    /// What the sender does about it.
    public var outcome: FCMOutcome {
        guard let error else { return .delivered(messageName: messageName ?? "") }
        switch error.code.kind {
        case .tokenDead: return .tokenInvalid(error.code)
        case .permanent: return .permanentFailure(error.code)
        case .credentials, .accessTokenRejected: return .credentialsRejected(error.code)
        case .temporary:
            // Google asks for at least 60 s after a quota error without Retry-After; other
            // temporary errors back off from the sender's own schedule.
            let fallback: Duration = error.code == .quotaExceeded ? .seconds(60) : .zero
            return .retryable(error.code, after: error.retryAfterSeconds.map { .seconds($0) } ?? fallback)
        }
    }
}

/// The four-way contract (plus success) a delivery pipeline needs, as `APNsOutcome` for APNs.
public enum FCMOutcome: Sendable, Hashable {
    case delivered(messageName: String)
    /// UNREGISTERED: remove the token if it was registered before the send.
    case tokenInvalid(FCMErrorCode)
    /// The request can never succeed (INVALID_ARGUMENT).
    case permanentFailure(FCMErrorCode)
    /// The app's FCM credentials are wrong (SENDER_ID_MISMATCH, THIRD_PARTY_AUTH_ERROR, a 401
    /// that a fresh access token did not cure): an operator must act.
    case credentialsRejected(FCMErrorCode)
    /// Try again after `after` (Retry-After) or the sender's backoff.
    case retryable(FCMErrorCode, after: Duration)
}
