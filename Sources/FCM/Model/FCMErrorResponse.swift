import Foundation

/// A refused `messages:send`: the HTTP status, FCM's error body, and `Retry-After`.
///
/// ```json
/// {"error": {"code": 404, "message": "Requested entity was not found.", "status": "NOT_FOUND",
///   "details": [{"@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", "errorCode": "UNREGISTERED"}]}}
/// ```
public struct FCMErrorResponse: Sendable, Hashable {
    public var status: Int
    public var code: FCMErrorCode
    /// Google's message, cut to 200 characters (it is logged).
    public var message: String
    /// Seconds to wait, from `Retry-After` (delta seconds only: FCM sends no dates).
    public var retryAfterSeconds: Int?

    /// - Parameters:
    ///   - status: the HTTP status (not 2xx).
    ///   - body: the response body, JSON or anything else (a proxy's HTML page).
    ///   - retryAfter: the `Retry-After` header, if any.
    public init(status: Int, body: Data, retryAfter: String?) {
        self.status = status
        let error = (try? JSONDecoder().decode(Envelope.self, from: body))?.error
        message = String((error?.message ?? "").prefix(200))
        retryAfterSeconds = retryAfter.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }.map { max(0, $0) }
        if let detail = error?.details?.compactMap(\.errorCode).first {
            code = FCMErrorCode(rawValue: detail)
        } else if let apiStatus = error?.status, let mapped = Self.byAPIStatus[apiStatus] {
            code = mapped
        } else {
            code = Self.byHTTPStatus[status] ?? .unknown("HTTP \(status)")
        }
    }

    /// Google's API statuses, for a body without an `FcmError` detail.
    private static let byAPIStatus: [String: FCMErrorCode] = [
        "NOT_FOUND": .unregistered, "INVALID_ARGUMENT": .invalidArgument, "PERMISSION_DENIED": .senderIDMismatch,
        "RESOURCE_EXHAUSTED": .quotaExceeded, "UNAVAILABLE": .unavailable, "INTERNAL": .internal,
        "UNAUTHENTICATED": .unauthenticated,
    ]

    /// HTTP statuses, for a body that is not FCM's at all.
    private static let byHTTPStatus: [Int: FCMErrorCode] = [
        400: .invalidArgument, 401: .unauthenticated, 403: .senderIDMismatch, 404: .unregistered, 429: .quotaExceeded,
        500: .internal, 503: .unavailable,
    ]

    private struct Envelope: Decodable {
        var error: Body?
    }

    private struct Body: Decodable {
        var code: Int?
        var message: String?
        var status: String?
        var details: [Detail]?
    }

    private struct Detail: Decodable {
        var errorCode: String?
    }
}
