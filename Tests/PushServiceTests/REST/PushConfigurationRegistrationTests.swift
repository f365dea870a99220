import APNs
import ProviderDriver
import PushCore
import Testing
@testable import PushService

/// `push_configuration` in a registration body: the app's named APNs configuration a token
/// belongs to. The official SDK's body without it keeps working.
@Suite(.timeLimit(.minutes(5))) struct PushConfigurationRegistrationTests {
    static let app: AppConfiguration = {
        let auth = APNsAuthSetting.token(keyFile: "k.p8", keyID: "ABC123DEFG", teamID: "DEF123GHIJ")
        let debug = APNsAppConfiguration(topic: "com.example.app", environment: .sandbox, auth: auth, name: "debug")
        let apns = APNsAppConfiguration(
            topic: "com.example.app", environment: .production, auth: auth, name: "production", others: [debug])
        return AppConfiguration(appID: TestApps.a.appID, apiToken: TestApps.a.apiToken, providers: ProviderSettingsList([apns]))
    }()

    @Test func aNamedConfigurationIsStoredAndAnUnknownOneRefused() async throws {
        try await LiveRelay.run(apps: [Self.app, TestApps.b]) { relay async throws in
            let named = try await relay.request(
                .post, "/v3/users/alice/push/apns", body: #"{"apns_device_token": "\#(apnsToken(1))", "push_configuration": "debug"}"#,
                app: Self.app)
            #expect(named.status == .ok)
            #expect(named.body["push_configuration"] == .string("debug"))

            // The SDK's body: no field, the token keeps its configuration.
            let plain = try await relay.request(
                .post, "/v3/users/alice/push/apns", body: #"{"apns_device_token": "\#(apnsToken(1))", "is_unique": false}"#,
                app: Self.app)
            #expect(plain.status == .ok && plain.body["push_configuration"] == .string("debug"))
            let other = try await relay.request(
                .post, "/v3/users/alice/push/apns", body: #"{"apns_device_token": "\#(apnsToken(2))"}"#, app: Self.app)
            #expect(other.body["push_configuration"] == nil)

            for body in [
                #"{"apns_device_token": "\#(apnsToken(3))", "push_configuration": "Debug"}"#,
                #"{"apns_device_token": "\#(apnsToken(3))", "push_configuration": 1}"#,
            ] {
                let refused = try await relay.request(.post, "/v3/users/alice/push/apns", body: body, app: Self.app)
                #expect(refused.status == .badRequest, "\(body)")
            }
            let refused = try await relay.request(
                .post, "/v3/users/alice/push/apns", body: #"{"apns_device_token": "\#(apnsToken(3))", "push_configuration": "x"}"#,
                app: Self.app)
            #expect(
                refused.body
                    == json(
                        #"{"message": "Invalid value: \"push_configuration\" is not one of the app's APNs configurations (\"production\", \"debug\").", "code": 400111, "error": true}"#
                    ))
            // An app without named configurations, or a provider without them: refused too.
            let none = try await relay.request(
                .post, "/v3/users/alice/push/gcm", body: #"{"gcm_reg_token": "fcm-token-1", "push_configuration": "debug"}"#,
                app: Self.app)
            #expect(none.status == .badRequest)
            #expect(try await relay.store.tokens(app: Self.app.appID, user: "alice")?.map(\.configuration) == ["debug", nil])
        }
    }
}
