import ConfigSupport
import Foundation
import Logging
import ProviderDriver
import PushCore

extension HMSAppConfiguration: ProviderSettings {
    public var provider: PushProvider { .hms }

    public var credentialFiles: [CredentialFile] { clientSecret.credentialFile(key: "client_secret").map { [$0] } ?? [] }

    public var inlineSecretKeys: [String] { clientSecret.isInline ? ["client_secret"] : [] }

    /// The shipped example's app id, against Huawei's own HMS only (a mock takes any).
    public var examplePlaceholders: [ExamplePlaceholder] {
        guard endpoint == HMSClientConfiguration.defaultEndpoint, appID == "104783201" else { return [] }
        return [ExamplePlaceholder(key: "app_id", value: appID, fix: "set the AppGallery Connect app's id")]
    }

    public var credential: CredentialDescription {
        CredentialDescription(kind: "OAuth client secret", lifetime: .until("until reset"))
    }

    public func makeRoute(logger: Logger, now: Date) throws(ProviderSetupError) -> ProviderRoute {
        let client: HMSClient
        do {
            client = try HMSClient(configuration: clientConfiguration(logger: logger))
        } catch {
            throw ProviderSetupError("hms: \(error)")
        }
        let c = client.configuration
        var route = HMSDriver.route(client: client)
        route.summary = "hms: app \(c.appID), \(c.endpoint.absoluteString)"
        route.probe = { await HMSProbe.run(client) }
        return route
    }

    func clientConfiguration(logger: Logger) -> HMSClientConfiguration {
        HMSClientConfiguration(
            appID: appID, clientSecret: clientSecret.value, endpoint: endpoint, tokenURL: tokenURL, caFile: caFile,
            connections: poolSize, logger: logger)
    }
}
