import Foundation
import HTTP2Transport
import Testing
@testable import FCM

/// FCM's answers as the transport hands them over, and what the dispatcher is told to do.
@Suite(.timeLimit(.minutes(5))) struct FCMResponseTests {
    static func error(_ status: Int, _ apiStatus: String, _ code: String?, retryAfter: Duration? = nil) -> HTTP2Response {
        let detail =
            code.map { #", "details": [{"@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", "errorCode": "\#($0)"}]"# } ?? ""
        let body = #"{"error": {"code": \#(status), "message": "m", "status": "\#(apiStatus)"\#(detail)}}"#
        return HTTP2Response(status: status, retryAfter: retryAfter, body: Array(body.utf8))
    }

    @Test func aSuccessNamesTheMessage() {
        let answer = HTTP2Response(status: 200, body: Array(#"{"name": "projects/p/messages/0:1500415314455276%31bd1c9631bd1c96"}"#.utf8))
        #expect(FCMClient.response(answer).outcome == .delivered(messageName: "projects/p/messages/0:1500415314455276%31bd1c9631bd1c96"))
    }

    /// The name is read without a JSON decoder; escapes and other layouts still come out right.
    @Test(
        arguments: [
            (#"{"name":"projects/p/messages/1"}"#, "projects/p/messages/1"),
            (#"{\n  "name": "projects/p/messages/2"\n}\n"#, "projects/p/messages/2"),
            (#"{"name": "projects\/p\/messages\/3"}"#, "projects/p/messages/3"),
            (#"{"name": "projects/p/messages/\u0034"}"#, "projects/p/messages/4"),
            (#"{}"#, nil),
            (#"not json"#, nil),
        ] as [(String, String?)])
    func theMessageNameIsReadFromAnyLayout(body: String, name: String?) {
        #expect(FCMClient.messageName(Array(body.utf8)) == name)
    }

    @Test func everyDocumentedErrorMapsToItsOutcome() {
        #expect(FCMClient.response(Self.error(404, "NOT_FOUND", "UNREGISTERED")).outcome == .tokenInvalid(.unregistered))
        #expect(FCMClient.response(Self.error(400, "INVALID_ARGUMENT", "INVALID_ARGUMENT")).outcome == .permanentFailure(.invalidArgument))
        #expect(
            FCMClient.response(Self.error(403, "PERMISSION_DENIED", "SENDER_ID_MISMATCH")).outcome
                == .credentialsRejected(.senderIDMismatch))
        #expect(
            FCMClient.response(Self.error(401, "UNAUTHENTICATED", "THIRD_PARTY_AUTH_ERROR")).outcome
                == .credentialsRejected(.thirdPartyAuthError))
        #expect(
            FCMClient.response(Self.error(429, "RESOURCE_EXHAUSTED", "QUOTA_EXCEEDED", retryAfter: .seconds(7))).outcome
                == .retryable(.quotaExceeded, after: .seconds(7)))
        #expect(
            FCMClient.response(Self.error(429, "RESOURCE_EXHAUSTED", "QUOTA_EXCEEDED")).outcome
                == .retryable(.quotaExceeded, after: .seconds(60)),
            "Google: at least a minute when it gives no Retry-After")
        #expect(FCMClient.response(Self.error(503, "UNAVAILABLE", "UNAVAILABLE")).outcome == .retryable(.unavailable, after: .zero))
        #expect(FCMClient.response(Self.error(500, "INTERNAL", "INTERNAL")).outcome == .retryable(.internal, after: .zero))
        #expect(
            FCMClient.response(HTTP2Response(status: 502, body: Array("<html>bad gateway</html>".utf8))).outcome
                == .retryable(.unknown("HTTP 502"), after: .zero), "a proxy's page: temporary, never a reason to drop a token")
    }

    @Test func noAnswerErrorsSayWhetherToRetryAndWhoMustAct() {
        #expect(FCMError.transport(.timedOut).isRetryable)
        #expect(!FCMError.transport(.shutdown).isRetryable)
        #expect(FCMError.accessTokenRefused(status: 503, reason: "x").isRetryable)
        #expect(FCMError.accessTokenRefused(status: 0, reason: "no connection").isRetryable)
        let refused = FCMError.accessTokenRefused(status: 400, reason: "invalid_grant: Invalid JWT Signature.")
        #expect(!refused.isRetryable && refused.isCredentialError)
        #expect(refused.description.contains("invalid_grant"))
    }
}
