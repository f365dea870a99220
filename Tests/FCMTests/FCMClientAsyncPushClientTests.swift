import Foundation
import PushSending
import Testing

@testable import FCM

/// FCM's answers and failures in the seam's terms, without I/O.
@Suite(.timeLimit(.minutes(5))) struct FCMClientAsyncPushClientTests {
    @Test func answersAreClassified() {
        let delivered = FCMClient.result(
            FCMResponse(status: 200, messageName: "projects/p/messages/1"), token: "t", startedAtMs: 5, latency: .zero)
        #expect(delivered.outcome == .delivered(providerID: "projects/p/messages/1"))
        let gone = FCMClient.result(
            FCMResponse(
                status: 404, error: FCMErrorResponse(status: 404, body: Data(#"{"error":{"status":"UNREGISTERED"}}"#.utf8), retryAfter: nil)
            ),
            token: "t", startedAtMs: 5, latency: .zero)
        #expect(gone.outcome == .tokenDead(.registeredBefore(5)), "FCM gives no moment: registered before the send started")
    }

    @Test func failuresAreTheMomentOrTheCredentials() {
        let refused = FCMClient.result(FCMError.accessTokenRefused(status: 400, reason: "invalid_grant"))
        #expect(refused.outcome == .credentialsRefused)
        #expect(refused.label == "token_exchange", "counted under one reason, as HMS's")
        #expect(FCMClient.result(FCMError.accessTokenRefused(status: 503, reason: "down")).outcome == .retry(after: .zero))
        #expect(FCMClient.result(FCMError.transport(.shutdown)).outcome == .notSent)
        #expect(FCMClient.result(CancellationError()).outcome == .notSent)
    }
}
