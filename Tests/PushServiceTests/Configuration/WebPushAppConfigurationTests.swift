import ConfigSupport
import Crypto
import Foundation
import Testing
import WebPush

@testable import PushService

/// `apps[].webpush`, read through the driver: the key checked at start, every error naming its key.
@Suite(.timeLimit(.minutes(1))) struct WebPushAppConfigurationTests {
    static let key = P256.Signing.PrivateKey()
    static var rawKey: String {
        key.rawRepresentation.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func yaml(_ webpush: String) -> String {
        """
        listen: {}
        database: {path: /tmp/unused.sqlite}
        apps:
          - app_id: A
            api_token: api-token-0123456789abcdef
            webpush: \(webpush)
        """
    }

    @Test func everyKeyIsRead() throws {
        let configuration = try RelayConfiguration.parse(
            yaml: Self.yaml(
                """
                {vapid_private_key: \(Self.rawKey), subject: "mailto:ops@example.org", navigate: "https://chat.example.org/c/{channel_url}",
                 allowed_endpoints: ["https://push.example.org:8443", "https://*.up.example.net"], pool_size: 3}
                """))
        let settings = try #require(configuration.apps[0].providers.settings(WebPushAppConfiguration.self))
        #expect(settings.subject == "mailto:ops@example.org")
        #expect(settings.navigateTemplate == "https://chat.example.org/c/{channel_url}")
        #expect(settings.poolSize == 3)
        #expect(settings.allowlist.admits(URL(string: "https://a.up.example.net/x")!))
        #expect(settings.allowlist.admits(URL(string: "https://fcm.googleapis.com/fcm/send/x")!))
        #expect(!settings.allowlist.admits(URL(string: "https://push.example.org/x")!), "another port")
        #expect(settings.clientSettings == ["application_server_key": try VAPIDKey(text: Self.rawKey).publicKey])
        #expect(configuration.inlineSecretKeys.contains("apps[0].webpush.vapid_private_key"))
        // The secret never shows in a description.
        #expect(!"\(settings)".contains(Self.rawKey))
    }

    @Test(arguments: [
        (#"{subject: "mailto:a@b.c", navigate: "https://x.example/"}"#, "apps[0].webpush.vapid_private_key"),
        (#"{vapid_private_key: nope, subject: "mailto:a@b.c", navigate: "https://x.example/"}"#, "P-256"),
        (#"{vapid_private_key: KEY, subject: "ops@example.org", navigate: "https://x.example/"}"#, "apps[0].webpush.subject"),
        (#"{vapid_private_key: KEY, subject: "mailto:a@b.c", navigate: "http://x.example/"}"#, "apps[0].webpush.navigate"),
        (
            #"{vapid_private_key: KEY, subject: "mailto:a@b.c", navigate: "https://x.example/", allowed_endpoints: ["http://p.example"]}"#,
            "apps[0].webpush.allowed_endpoints"
        ),
        (
            #"{vapid_private_key: KEY, subject: "mailto:a@b.c", navigate: "https://x.example/", endpoint: "https://p.example"}"#,
            "endpoint"
        ),
    ])
    func aWrongSectionNamesItsKey(section: String, words: String) {
        let error = #expect(throws: ConfigurationError.self) {
            try RelayConfiguration.parse(yaml: Self.yaml(section.replacingOccurrences(of: "KEY", with: Self.rawKey)))
        }
        #expect("\(error.map { "\($0)" } ?? "")".contains(words), "\(String(describing: error))")
    }

    /// `check-config --probe` proves the key signs and verifies, and prints its public half.
    @Test func theProbeProvesTheKey() async throws {
        let configuration = try RelayConfiguration.parse(
            yaml: Self.yaml(#"{vapid_private_key: \#(Self.rawKey), subject: "mailto:a@b.c", navigate: "https://x.example/"}"#))
        let settings = try #require(configuration.apps[0].providers.settings(WebPushAppConfiguration.self))
        let route = try settings.makeRoute(logger: .init(label: "test"), now: Date())
        let finding = await route.probe()
        #expect(finding.ok)
        #expect(finding.message.contains(settings.vapidPublicKey))
        await route.sender.shutdown()
    }
}
