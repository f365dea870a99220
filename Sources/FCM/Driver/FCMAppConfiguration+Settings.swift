import ConfigSupport
import Foundation
import Logging
import ProviderDriver
import PushCore

extension FCMAppConfiguration: ProviderSettings {
    public var provider: PushProvider { .fcm }

    public var credentialFiles: [CredentialFile] { [CredentialFile(key: "service_account", path: serviceAccountFile)] }

    /// The shipped example's project, against Google's own FCM only (a mock takes any).
    public var examplePlaceholders: [ExamplePlaceholder] {
        guard endpoint == FCMClientConfiguration.production, projectID == "my-app-1234" else { return [] }
        return [
            ExamplePlaceholder(
                key: "project_id", value: "my-app-1234", fix: "set the Firebase project, or leave it out to use the service account's")
        ]
    }

    public var credential: CredentialDescription {
        CredentialDescription(kind: "Service account key", lifetime: .until("until revoked"))
    }

    public func makeRoute(logger: Logger, now: Date) throws(ProviderSetupError) -> ProviderRoute {
        let client: FCMClient
        do {
            client = try FCMClient(configuration: try clientConfiguration(logger: logger))
        } catch {
            throw ProviderSetupError("fcm: \(error)")
        }
        let c = client.configuration
        var route = FCMDriver.route(client: client)
        route.summary = "fcm: \(c.serviceAccount) loaded; project \(c.projectID), https://\(c.endpoint)"
        route.probe = { await FCMProbe.run(client) }
        return route
    }

    /// Reads the service account and makes the client's configuration.
    func clientConfiguration(logger: Logger) throws(FCMError) -> FCMClientConfiguration {
        let account: FCMServiceAccount
        do {
            account = try FCMServiceAccount(file: serviceAccountFile)
        } catch {
            throw .credentials(error)
        }
        return FCMClientConfiguration(
            serviceAccount: account, serviceAccountSource: serviceAccountFile, projectID: projectID, endpoint: endpoint,
            tokenURL: tokenURL, extraCAFile: caFile,
            // A custom endpoint with its own CA (fcm-mock) trusts only that CA.
            trustSystemRoots: caFile == nil, connections: poolSize, logger: logger)
    }
}
