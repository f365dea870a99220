import ConfigSupport
import Foundation
import Logging
import ProviderDriver
import PushCore

extension WebPushAppConfiguration: ProviderSettings {
    public var provider: PushProvider { .webPush }

    public var credentialFiles: [CredentialFile] { vapidPrivateKey.credentialFile(key: "vapid_private_key").map { [$0] } ?? [] }

    public var inlineSecretKeys: [String] { vapidPrivateKey.isInline ? ["vapid_private_key"] : [] }

    public var credential: CredentialDescription {
        CredentialDescription(kind: "VAPID key", lifetime: .until("until replaced (subscriptions are bound to it)"))
    }

    public var examplePlaceholders: [ExamplePlaceholder] {
        guard subject == "mailto:ops@example.com" else { return [] }
        return [ExamplePlaceholder(key: "subject", value: subject, fix: "set a contact the push services can reach")]
    }

    public func refusal(of token: String) -> TokenFormatProblem? { allowlist.refusal(of: token) }

    public var clientSettings: [String: String] { ["application_server_key": vapidPublicKey] }

    public func makeRoute(logger: Logger, now: Date) throws(ProviderSetupError) -> ProviderRoute {
        let client: WebPushClient
        do {
            client = try WebPushClient(configuration: clientConfiguration(logger: logger))
        } catch {
            throw ProviderSetupError("webpush: \(error)")
        }
        var route = WebPushDriver.route(client: client)
        route.summary = "webpush: VAPID key \(vapidPublicKey.prefix(12))…, \(allowlist.origins.count) push services allowed"
        route.probe = { WebPushProbe.run(client.configuration) }
        return route
    }

    func clientConfiguration(logger: Logger) throws(ProviderSetupError) -> WebPushClientConfiguration {
        let key: VAPIDKey
        do {
            key = try VAPIDKey(text: vapidPrivateKey.value)
        } catch {
            throw ProviderSetupError("webpush.vapid_private_key \(error)")
        }
        return WebPushClientConfiguration(
            vapidKey: key, subject: subject, navigateTemplate: navigateTemplate, allowlist: allowlist, caFile: caFile,
            connections: poolSize, logger: logger)
    }
}
