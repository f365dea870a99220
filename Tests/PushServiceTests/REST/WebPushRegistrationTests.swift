import ConfigSupport
import Crypto
import Foundation
import HTTPTypes
import ProviderDriver
import PushCore
import Testing
import WebPush

@testable import PushService

/// Web Push joins through its driver alone: the REST routes take a browser's subscription object
/// as any other provider's token.
@Suite(.timeLimit(.minutes(5))) struct WebPushRegistrationTests {
    static let vapid = P256.Signing.PrivateKey()
    static let app: AppConfiguration = {
        var app = TestApps.a
        let key = try! VAPIDKey(text: vapid.pemRepresentation)
        app.providers = ProviderSettingsList([
            WebPushAppConfiguration(
                vapidPrivateKey: Secret(vapid.pemRepresentation), vapidPublicKey: key.publicKey, subject: "mailto:ops@example.com",
                navigateTemplate: "https://chat.example.com/c/{channel_url}", allowedEndpoints: ["https://push.example.org"])
        ])
        return app
    }()

    static func subscription(_ endpoint: String) -> String {
        let key = P256.KeyAgreement.PrivateKey().publicKey.x963Representation.base64URL
        return #"{"endpoint": "\#(endpoint)", "expirationTime": null, "keys": {"p256dh": "\#(key)", "auth": "AAECAwQFBgcICQoLDA0ODw"}}"#
    }

    /// `PushSubscription.toJSON()` as is → a token of type `webpush`; listed, owned, removed by
    /// that token in the path.
    @Test func aBrowsersSubscriptionRegistersListsAndIsRemoved() async throws {
        try await LiveRelay.run(apps: [Self.app]) { relay async throws in
            let added = try await relay.request(
                .post, "/v3/users/alice/push/webpush",
                body: #"{"subscription": \#(Self.subscription("https://fcm.googleapis.com/fcm/send/abc:1"))}"#)
            #expect(added.status == .ok)
            #expect(added.body["type"] == .string("webpush"))
            guard case .string(let token)? = added.body["token"] else { Issue.record("no token"); return }
            let list = try await relay.request(.get, "/v3/users/alice/push/webpush")
            #expect(list.body["tokens"] == .array([.string(token)]))
            let owner = try await relay.request(.get, "/v3/push/device_tokens/webpush/\(token)")
            #expect(owner.body == json(#"[{"user_id": "alice"}]"#))
            let removed = try await relay.request(.delete, "/v3/users/alice/push/webpush/\(token)")
            #expect(removed.status == .ok)
            #expect(try await relay.request(.get, "/v3/users/alice/push/webpush").body["tokens"] == .array([]))
        }
    }

    /// An endpoint that is no push service the app allows (an internal address: SSRF), keys that
    /// are not keys, and a string where the object belongs are 400s with Sendbird's body.
    @Test(arguments: [
        (#"{"subscription": \#(subscription("https://169.254.169.254/latest/meta-data"))}"#, "not a known push service"),
        (#"{"subscription": \#(subscription("http://fcm.googleapis.com/fcm/send/x"))}"#, "https"),
        (#"{"subscription": {"endpoint": "https://fcm.googleapis.com/x", "keys": {"p256dh": "AAAA", "auth": "AAAA"}}}"#, "P-256"),
        (#"{"subscription": "https://fcm.googleapis.com/x"}"#, "subscription"),
        (#"{"subscription": {"endpoint": "https://fcm.googleapis.com/x"}}"#, "keys.p256dh"),
    ])
    func aBadSubscriptionIsRefused(body: String, words: String) async throws {
        try await LiveRelay.run(apps: [Self.app]) { relay async throws in
            let answer = try await relay.request(.post, "/v3/users/alice/push/webpush", body: body)
            #expect(answer.status == .badRequest)
            guard case .string(let message)? = answer.body["message"] else { Issue.record("no message"); return }
            #expect(message.contains(words), "\(message)")
            #expect(answer.body["error"] == .bool(true))
            #expect(try await relay.store.tokens(app: Self.app.appID, user: "alice")?.isEmpty ?? true)
        }
    }

    /// An app without `webpush` settings still takes only the public push services: the
    /// subscription could be sent to once settings are added.
    @Test func withoutSettingsOnlyThePublicPushServicesRegister() async throws {
        try await LiveRelay.run { relay async throws in
            let inside = try await relay.request(
                .post, "/v3/users/alice/push/webpush", body: #"{"subscription": \#(Self.subscription("https://10.0.0.7/push/1"))}"#)
            #expect(inside.status == .badRequest)
            #expect(try await relay.store.tokens(app: TestApps.a.appID, user: "alice")?.isEmpty ?? true)
            let outside = try await relay.request(
                .post, "/v3/users/alice/push/webpush",
                body: #"{"subscription": \#(Self.subscription("https://updates.push.services.mozilla.com/wpush/v2/x"))}"#)
            #expect(outside.status == .ok)
        }
    }

    /// The app's own push service is admitted once `allowed_endpoints` names it.
    @Test func anAllowedSelfHostedPushServiceRegisters() async throws {
        try await LiveRelay.run(apps: [Self.app]) { relay async throws in
            let added = try await relay.request(
                .post, "/v3/users/alice/push/webpush", body: #"{"subscription": \#(Self.subscription("https://push.example.org/up/1"))}"#)
            #expect(added.status == .ok)
        }
    }

    /// The web app's `applicationServerKey`, for a session of the app's users too.
    @Test func theApplicationServerKeyIsPublished() async throws {
        try await LiveRelay.run(apps: [Self.app]) { relay async throws in
            let answer = try await relay.request(.get, "/v3/applications/push/webpush")
            #expect(answer.status == .ok)
            let key = Self.vapid.publicKey.x963Representation.base64URL
            #expect(answer.body == json(#"{"push_configurations": [{"push_type": "webpush", "application_server_key": "\#(key)"}]}"#))
            let none = try await relay.request(.get, "/v3/applications/push/gcm")
            #expect(none.body == json(#"{"push_configurations": []}"#))
        }
    }
}

extension Data {
    var base64URL: String {
        base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
