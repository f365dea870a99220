import Foundation
import MockSupport

/// One answer the mock writes on a stream: status, JSON body, and the headers Google adds. (An
/// `Error` too: a validator refuses with the answer it gets.)
struct FCMMockAnswer: Error, Sendable, Equatable, MockHTTPAnswer {
    var status: Int
    var body: Data
    var retryAfterSeconds: Int?

    static let contentType = "application/json; charset=UTF-8"

    /// `{"name": "projects/{project}/messages/{id}"}`.
    static func sent(name: String) -> FCMMockAnswer {
        FCMMockAnswer(status: 200, body: json(["name": name]))
    }

    /// The token endpoint's success: `{"access_token","expires_in","token_type":"Bearer"}`.
    static func accessToken(_ token: String, expiresIn: Int) -> FCMMockAnswer {
        let body = "{\"access_token\":\(quoted(token)),\"expires_in\":\(expiresIn),\"token_type\":\"Bearer\"}"
        return FCMMockAnswer(status: 200, body: Data(body.utf8))
    }

    /// The token endpoint's refusal, OAuth 2.0 style: `{"error":"invalid_grant","error_description":"…"}`.
    static func oauthError(status: Int = 400, _ code: String, _ description: String) -> FCMMockAnswer {
        FCMMockAnswer(status: status, body: json(["error": code, "error_description": description]))
    }

    /// FCM HTTP v1's error body: Google's API status, and an `FcmError` detail when FCM names one.
    ///
    /// `{"error":{"code":404,"message":"Requested entity was not found.","status":"NOT_FOUND",
    /// "details":[{"@type":"type.googleapis.com/google.firebase.fcm.v1.FcmError","errorCode":"UNREGISTERED"}]}}`
    static func fcmError(
        status: Int, apiStatus: String, message: String, errorCode: String? = nil, retryAfterSeconds: Int? = nil
    ) -> FCMMockAnswer {
        var body = "{\"error\":{\"code\":\(status),\"message\":\(quoted(message)),\"status\":\(quoted(apiStatus))"
        if let errorCode {
            body +=
                ",\"details\":[{\"@type\":\"type.googleapis.com/google.firebase.fcm.v1.FcmError\",\"errorCode\":\(quoted(errorCode))}]"
        }
        body += "}}"
        return FCMMockAnswer(status: status, body: Data(body.utf8), retryAfterSeconds: retryAfterSeconds)
    }

    static func invalidArgument(_ message: String) -> FCMMockAnswer {
        fcmError(status: 400, apiStatus: "INVALID_ARGUMENT", message: message, errorCode: "INVALID_ARGUMENT")
    }

    static let unregistered = fcmError(
        status: 404, apiStatus: "NOT_FOUND", message: "Requested entity was not found.", errorCode: "UNREGISTERED")

    /// A missing, unknown, expired or revoked access token: no `FcmError` detail, as Google answers.
    static let unauthenticated = fcmError(
        status: 401, apiStatus: "UNAUTHENTICATED",
        message:
            "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential."
    )

    static func quotaExceeded(retryAfterSeconds: Int?) -> FCMMockAnswer {
        fcmError(
            status: 429, apiStatus: "RESOURCE_EXHAUSTED", message: "Quota exceeded for quota metric 'Messages sent'.",
            errorCode: "QUOTA_EXCEEDED", retryAfterSeconds: retryAfterSeconds)
    }

    static let unavailable = fcmError(
        status: 503, apiStatus: "UNAVAILABLE", message: "The service is currently unavailable.", errorCode: "UNAVAILABLE")
    static let `internal` = fcmError(
        status: 500, apiStatus: "INTERNAL", message: "Internal error encountered.", errorCode: "INTERNAL")
    static let senderIDMismatch = fcmError(
        status: 403, apiStatus: "PERMISSION_DENIED", message: "SenderId mismatch", errorCode: "SENDER_ID_MISMATCH")
    static let thirdPartyAuthError = fcmError(
        status: 401, apiStatus: "UNAUTHENTICATED", message: "Auth error from APNS or Web Push Service",
        errorCode: "THIRD_PARTY_AUTH_ERROR")

    static func notFound(_ path: String) -> FCMMockAnswer {
        fcmError(status: 404, apiStatus: "NOT_FOUND", message: "The requested URL \(path.prefix(200)) was not found on this server.")
    }

    private static func json(_ object: [String: String]) -> Data {
        (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
    }

    private static func quoted(_ text: String) -> String {
        String(decoding: (try? JSONEncoder().encode(text)) ?? Data("\"\"".utf8), as: UTF8.self)
    }
}
