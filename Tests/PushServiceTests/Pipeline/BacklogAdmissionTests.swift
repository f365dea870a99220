import APNsMock
import Foundation
import Testing
@testable import PushService

/// The webhook keeps the backlog promise end to end: while an app's pushes cannot leave, an
/// event beyond `maxBacklog` is 503 with Retry-After and a Sendbird body and stores nothing;
/// once they leave, events are accepted again.
@Suite(.timeLimit(.minutes(5))) struct BacklogAdmissionTests {
    @Test func anEventBeyondTheBacklogIs503UntilPushesLeave() async throws {
        // Floor 1,000 pushes/s × 1 ms: one push may wait.
        var configuration = PipelineFixtures.dispatcherConfiguration
        configuration.maxBacklog = .milliseconds(1)
        try await PipelineRelay.withMockAndDirectory { mock, directory in
            try await PipelineRelay.run(mock: mock, directory: directory, dispatcherConfiguration: configuration) { relay in
                try await relay.register("bob", token: apnsToken(1))
                // APNs answers 503 until the fault is cleared: bob's push stays unsent (awaiting its
                // retry) however slow this machine is.
                mock.addFault(.status(code: 503, reason: "ServiceUnavailable", count: 1_000_000, retryAfterSeconds: nil))
                #expect(try await relay.postWebhook(messageEvent(messageID: 40, offline: ["bob"])).status == .ok)
                let refused = try await relay.postWebhook(messageEvent(messageID: 41, offline: ["bob"]))
                #expect(refused.status == .serviceUnavailable)
                #expect(refused.code == 500901)
                #expect(refused.headers[.retryAfter] == "1")
                #expect(refused.text.contains("pushes of this app waiting, more than it can send"), "a signed sender is told how many wait")
                #expect(try await relay.store.eventExists(app: TestApps.a.appID, messageID: 41) == false)
                // On the URL naming the app the refusal comes before the body is read or its
                // signature checked (a wrong key gets the same 503); without the app id in the URL
                // the signature is checked first.
                let unsigned = messageEvent(messageID: 42, offline: ["bob"])
                let early = try await relay.postWebhook(
                    unsigned, signingToken: "not-the-key", path: "/webhooks/sendbird/\(TestApps.a.appID)")
                #expect(early.status == .serviceUnavailable)
                #expect(early.headers[.retryAfter] == "1")
                #expect(early.code == 500901)
                #expect(
                    early.text.contains("more pushes of this app waiting than it can send")
                        && !early.text.contains("pushes of this app waiting, more"), "an unsigned request learns only that the app is busy")
                #expect(try await relay.postWebhook(unsigned, signingToken: "not-the-key").status == .unauthorized)
                // APNs recovers, the first push leaves (at its next retry), and the retried event is accepted.
                mock.clearFaults()
                _ = try await mock.waitForNotifications(count: 1, timeout: .seconds(60))
                try await relay.eventually(timeout: .seconds(60), "the retried event to be accepted") {
                    try await relay.postWebhook(messageEvent(messageID: 41, offline: ["bob"])).status == .ok
                }
                _ = try await mock.waitForNotifications(count: 2, timeout: .seconds(60))
            }
        }
    }
}
