import PushSending

/// What became of one message: the push service's answer, or why it was never posted.
public enum WebPushAnswer: Sendable, Hashable {
    /// The push service answered (RFC 8030 §5: 201 Created).
    case answered(status: Int, location: String?, retryAfter: Duration?, text: String?)
    /// The subscription's `expirationTime` has passed: the push service dropped it.
    case expired
    /// The token is not a subscription this relay wrote.
    case invalidSubscription(String)
    /// The endpoint is outside the app's allowlist (it was narrowed after registration).
    case endpointNotAllowed(origin: String)
    /// Even the shortest message does not fit in 4,096 encrypted bytes.
    case tooLarge

    /// Reasons as metric labels: bounded, whatever a push service writes.
    static let removalReasons = ["not_found", "gone", "expired", "invalid_subscription"]
    static let credentialReasons = ["vapid_refused"]

    func result(startedAtMs: Int64, latency: Duration) -> PushSendResult {
        switch self {
        case .expired:
            PushSendResult(.tokenDead(.always), reason: "expired", label: "expired", error: "the subscription's expirationTime has passed")
        case .invalidSubscription(let why):
            PushSendResult(.tokenDead(.always), reason: "invalid_subscription", label: "invalid_subscription", error: why)
        case .endpointNotAllowed(let origin):
            PushSendResult(
                .rejected, reason: "endpoint_not_allowed", label: "other", error: "\(origin) is not in webpush.allowed_endpoints")
        case .tooLarge:
            PushSendResult(
                .rejected, reason: "payload_too_large", label: "other", error: "the message does not fit in 4096 encrypted bytes")
        case .answered(let status, let location, let retryAfter, let text):
            PushSendResult(
                Self.outcome(status: status, location: location, retryAfter: retryAfter, startedAtMs: startedAtMs), status: status,
                reason: Self.reason(status), label: Self.reason(status), error: (200..<300).contains(status) ? nil : text,
                latency: latency)
        }
    }

    /// RFC 8030 §6-7 and the push services' documented answers.
    static func outcome(status: Int, location: String?, retryAfter: Duration?, startedAtMs: Int64) -> PushSendOutcome {
        switch status {
        case 200..<300: .delivered(providerID: location)
        // The subscription is gone; a registration after the send survives.
        case 404, 410: .tokenDead(.registeredBefore(startedAtMs))
        // The key in the JWT is not the one the subscription was made with, or the JWT is refused.
        case 401, 403: .credentialsRefused
        case 429, 500..<600: .retry(after: retryAfter ?? .zero)
        default: .rejected
        }
    }

    static func reason(_ status: Int) -> String {
        switch status {
        case 200..<300: "created"
        case 404: "not_found"
        case 410: "gone"
        case 401, 403: "vapid_refused"
        case 413: "payload_too_large"
        case 429: "too_many_requests"
        case 500..<600: "server_error"
        default: "other"
        }
    }
}
