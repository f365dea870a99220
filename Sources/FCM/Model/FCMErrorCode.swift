/// Why FCM refused a send: the `errorCode` of the `FcmError` detail in FCM HTTP v1's error body,
/// else what the HTTP status and the Google API `status` imply.
///
/// Forward-compatible: codes Google adds later arrive as `.unknown(String)` (temporary: retried,
/// never a reason to drop a token).
public enum FCMErrorCode: Sendable, Hashable, CustomStringConvertible {
    /// The token is no longer valid (app uninstalled, token expired): remove it.
    case unregistered
    /// The request is malformed (a bad token format, a payload over the limit).
    case invalidArgument
    /// The token belongs to another Firebase project than the credentials'.
    case senderIDMismatch
    /// Too many messages: to the project, or to one device.
    case quotaExceeded
    case unavailable
    case `internal`
    /// The APNs or web-push credentials configured in Firebase were refused.
    case thirdPartyAuthError
    /// The OAuth access token was missing, expired or revoked (HTTP 401).
    case unauthenticated
    case unknown(String)

    public static let allKnown: [FCMErrorCode] = [
        .unregistered, .invalidArgument, .senderIDMismatch, .quotaExceeded, .unavailable, .internal, .thirdPartyAuthError,
        .unauthenticated,
    ]

    public init(rawValue: String) {
        self = Self.allKnown.first { $0.rawValue == rawValue } ?? .unknown(rawValue)
    }

    /// As FCM writes it.
    public var rawValue: String {
        switch self {
        case .unregistered: "UNREGISTERED"
        case .invalidArgument: "INVALID_ARGUMENT"
        case .senderIDMismatch: "SENDER_ID_MISMATCH"
        case .quotaExceeded: "QUOTA_EXCEEDED"
        case .unavailable: "UNAVAILABLE"
        case .internal: "INTERNAL"
        case .thirdPartyAuthError: "THIRD_PARTY_AUTH_ERROR"
        case .unauthenticated: "UNAUTHENTICATED"
        case .unknown(let raw): raw
        }
    }

    public var description: String { rawValue }

    /// What a sender does about it.
    public var kind: FCMFailureKind {
        switch self {
        case .unregistered: .tokenDead
        case .invalidArgument: .permanent
        case .senderIDMismatch, .thirdPartyAuthError: .credentials
        case .unauthenticated: .accessTokenRejected
        case .quotaExceeded, .unavailable, .internal, .unknown: .temporary
        }
    }
}

/// The split every sender needs (Sygnal's, Pushy's): drop the token, give up on this push, fix
/// the configuration, get a new access token, or try again later.
public enum FCMFailureKind: Sendable, Hashable {
    /// Remove the token (if it was registered before the send) and do not retry.
    case tokenDead
    /// This push can never succeed; do not retry.
    case permanent
    /// The app's FCM credentials are wrong for this token or project: report, do not retry the push blindly.
    case credentials
    /// Refresh the OAuth access token, then retry.
    case accessTokenRejected
    /// Retry with backoff (after `Retry-After` when given).
    case temporary
}
