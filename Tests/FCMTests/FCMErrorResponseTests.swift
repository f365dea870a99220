import Foundation
import Testing
@testable import FCM

@Suite(.timeLimit(.minutes(5))) struct FCMErrorResponseTests {
    static func body(_ status: String, errorCode: String?) -> Data {
        let detail =
            errorCode.map { #", "details": [{"@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", "errorCode": "\#($0)"}]"# }
            ?? ""
        return Data(#"{"error": {"code": 400, "message": "m", "status": "\#(status)"\#(detail)}}"#.utf8)
    }

    /// The `FcmError` detail decides; without one, Google's status; without a body, the HTTP status.
    @Test func theCodeComesFromTheDetailTheStatusOrTheHTTPStatus() {
        #expect(
            FCMErrorResponse(status: 404, body: Self.body("NOT_FOUND", errorCode: "UNREGISTERED"), retryAfter: nil).code == .unregistered)
        #expect(
            FCMErrorResponse(status: 400, body: Self.body("INVALID_ARGUMENT", errorCode: nil), retryAfter: nil).code == .invalidArgument)
        #expect(
            FCMErrorResponse(status: 403, body: Self.body("PERMISSION_DENIED", errorCode: "SENDER_ID_MISMATCH"), retryAfter: nil).code
                == .senderIDMismatch)
        #expect(FCMErrorResponse(status: 429, body: Data("<html>".utf8), retryAfter: "30").code == .quotaExceeded)
        #expect(FCMErrorResponse(status: 429, body: Data(), retryAfter: " 30 ").retryAfterSeconds == 30)
        #expect(FCMErrorResponse(status: 503, body: Data(), retryAfter: "Wed, 21 Oct 2015 07:28:00 GMT").retryAfterSeconds == nil)
        #expect(FCMErrorResponse(status: 401, body: Data(), retryAfter: nil).code == .unauthenticated)
        #expect(FCMErrorResponse(status: 418, body: Data(), retryAfter: nil).code == .unknown("HTTP 418"))
        #expect(
            FCMErrorResponse(status: 400, body: Self.body("X", errorCode: "APNS_AUTH_ERROR"), retryAfter: nil).code
                == .unknown("APNS_AUTH_ERROR"))
        #expect(
            FCMErrorResponse(
                status: 500, body: Data(#"{"error": {"message": "\#(String(repeating: "x", count: 500))"}}"#.utf8), retryAfter: nil
            ).message.count == 200)
    }

    @Test func eachCodeSaysWhatToDo() {
        #expect(FCMErrorCode.unregistered.kind == .tokenDead)
        #expect(FCMErrorCode.invalidArgument.kind == .permanent)
        #expect(FCMErrorCode.senderIDMismatch.kind == .credentials)
        #expect(FCMErrorCode.thirdPartyAuthError.kind == .credentials)
        #expect(FCMErrorCode.unauthenticated.kind == .accessTokenRejected)
        for code in [FCMErrorCode.quotaExceeded, .unavailable, .internal, .unknown("NEW")] { #expect(code.kind == .temporary) }
        for code in FCMErrorCode.allKnown { #expect(FCMErrorCode(rawValue: code.rawValue) == code) }
    }
}
