import ConfigSupport
import Testing
import PushCore
@testable import PushService

/// `apps[].webhook_secret`: the key of `x-sendbird-signature` when configured, instead of the
/// master API token.
@Suite(.timeLimit(.minutes(5))) struct WebhookSecretTests {
    static let secret = "webhook-secret-0123456789abcdef"

    @Test func aSeparateSecretSignsWebhooksAndTheAPITokenNoLonger() async throws {
        var app = TestApps.a
        app.webhookSecret = Secret(Self.secret)
        try await PipelineRelay.withMockAndDirectory { mock, directory in
            try await PipelineRelay.run(mock: mock, directory: directory, apps: [app, TestApps.b]) { relay in
                try await relay.register("bob", token: apnsToken(1))
                let withAPIToken = try await relay.postWebhook(
                    messageEvent(messageID: 1, offline: ["bob"]), signingToken: TestApps.a.apiToken.value)
                #expect(withAPIToken.status == .unauthorized)
                #expect(withAPIToken.code == 400401)

                let withSecret = try await relay.postWebhook(messageEvent(messageID: 2, offline: ["bob"]), signingToken: Self.secret)
                #expect(withSecret.status == .ok, "\(withSecret.text)")
                let received = try await mock.waitForNotifications(count: 1, timeout: .seconds(60))
                #expect(received.map(\.deviceToken) == [apnsToken(1)])
                // Only the accepted event is in the log.
                let refused = try await relay.request(.get, "/v3/push/deliveries?message_id=1&user_id=bob").body["decision"]
                #expect(refused == nil || refused == .null)
                #expect(try await relay.request(.get, "/v3/push/deliveries?message_id=2&user_id=bob").body["decision"] == .string("push"))
            }
        }
    }

    @Test func withoutOneTheAPITokenSigns() {
        #expect(TestApps.a.webhookSecret == TestApps.a.apiToken)
    }
}
