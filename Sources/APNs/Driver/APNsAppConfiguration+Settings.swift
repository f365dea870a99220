import ConfigSupport
import Foundation
import Logging
import ProviderDriver
import PushCore

extension APNsAppConfiguration: ProviderSettings {
    public var provider: PushProvider { .apns }

    public var credentialFiles: [CredentialFile] {
        switch auth {
        case .token(let file, _, _): [CredentialFile(key: "auth.token.key_file", path: file)]
        case .p12(let file, let password):
            [CredentialFile(key: "auth.certificate.p12_file", path: file)]
                + (password?.credentialFile(key: "auth.certificate.password").map { [$0] } ?? [])
        case .pem(_, let file): [CredentialFile(key: "auth.certificate.key_file", path: file)]
        }
    }

    public var inlineSecretKeys: [String] {
        if case .p12(_, let password?) = auth, password.isInline { return ["auth.certificate.password"] }
        return []
    }

    /// The shipped example's topic and key ids, against Apple's own servers only (a mock takes any).
    public var examplePlaceholders: [ExamplePlaceholder] {
        guard environment == .production || environment == .sandbox else { return [] }
        var found: [ExamplePlaceholder] = []
        if topic.hasPrefix("com.example.") {
            found.append(ExamplePlaceholder(key: "topic", value: topic, fix: "set the iOS app's bundle id"))
        }
        if case .token(_, let keyID, let teamID) = auth {
            if keyID == "ABC123DEFG" {
                found.append(ExamplePlaceholder(key: "auth.token.key_id", value: keyID, fix: "set the id of the .p8 key (from Apple)"))
            }
            if teamID == "DEF123GHIJ" {
                found.append(ExamplePlaceholder(key: "auth.token.team_id", value: teamID, fix: "set the Apple developer team's id"))
            }
        }
        return found
    }

    /// Badge, sound, … are read from `apps[].apns` (where Sendbird keeps them) for the whole app.
    public var pushOptions: AppPushOptions? { options }
    public var timeToLive: Duration? { defaultExpiration }

    public var credential: CredentialDescription {
        switch auth {
        case .token(_, let keyID, _): CredentialDescription(kind: "Token signing key \(keyID)", lifetime: .until("does not expire"))
        case .p12, .pem: CredentialDescription(kind: "Client certificate", lifetime: .certificate)
        }
    }

    public func makeRoute(logger: Logger, now: Date) throws(ProviderSetupError) -> ProviderRoute {
        let credentials: APNsAppCredentials
        do {
            credentials = try APNsAppCredentials.load(auth, now: now)
        } catch {
            throw ProviderSetupError("apns.auth: \(error)")
        }
        let client: APNsClient
        do {
            client = try APNsClient(
                configuration: APNsClientConfiguration(
                    endpoint: environment.endpoint, authentication: credentials.authentication, extraCAFile: environment.caFile,
                    // A custom endpoint with its own CA (apns-mock) trusts only that CA.
                    trustSystemRoots: environment.caFile == nil, connections: poolSize, logger: logger))
        } catch {
            throw ProviderSetupError("apns: cannot create the APNs client: \(error)")
        }
        var summary = "\(auth) loaded; topic \(topic), \(environment)"
        if let notAfter = credentials.certificateNotAfter { summary += "; certificate valid until \(notAfter.ISO8601Format())" }
        let topic = topic
        var route = APNsDriver.route(client: client, topic: topic, pushType: pushType, priority: priority)
        route.certificateNotAfter = credentials.certificateNotAfter
        route.summary = summary
        route.probe = { await APNsProbe.run(client, topic: topic) }
        return route
    }
}
