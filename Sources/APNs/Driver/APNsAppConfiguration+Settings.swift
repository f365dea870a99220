import ConfigSupport
import Foundation
import Logging
import ProviderDriver
import PushCore

extension APNsAppConfiguration: ProviderSettings {
    public var provider: PushProvider { .apns }

    public var credentialFiles: [CredentialFile] {
        all.flatMap { config in config.ownCredentialFiles.map { CredentialFile(key: keyPrefix(config) + $0.key, path: $0.path) } }
    }

    public var inlineSecretKeys: [String] {
        all.compactMap { config in
            if case .p12(_, let password?) = config.auth, password.isInline { return keyPrefix(config) + "auth.certificate.password" }
            return nil
        }
    }

    public var connectionBudget: Int { all.reduce(0) { $0 + $1.poolSize } }

    public var configurationNames: [String] { all.map(\.name) }

    /// How a key of `config` is named in messages: as written for an app with one configuration,
    /// after the configuration's name for a list.
    private func keyPrefix(_ config: APNsAppConfiguration) -> String { others.isEmpty ? "" : "\(config.name)." }

    private var ownCredentialFiles: [CredentialFile] {
        switch auth {
        case .token(let file, _, _): [CredentialFile(key: "auth.token.key_file", path: file)]
        case .p12(let file, let password):
            [CredentialFile(key: "auth.certificate.p12_file", path: file)]
                + (password?.credentialFile(key: "auth.certificate.password").map { [$0] } ?? [])
        case .pem(_, let file): [CredentialFile(key: "auth.certificate.key_file", path: file)]
        }
    }

    /// The shipped example's topic and key ids, against Apple's own servers only (a mock takes any).
    public var examplePlaceholders: [ExamplePlaceholder] {
        all.flatMap { config in
            config.ownPlaceholders.map { ExamplePlaceholder(key: keyPrefix(config) + $0.key, value: $0.value, fix: $0.fix) }
        }
    }

    private var ownPlaceholders: [ExamplePlaceholder] {
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

    /// One sender per configuration (Apple: one team per connection), behind
    /// `APNsConfigurationSender` when there are several.
    public func makeRoute(logger: Logger, now: Date) throws(ProviderSetupError) -> ProviderRoute {
        guard !others.isEmpty else { return try makeOwnRoute(label: "apns", logger: logger, now: now) }
        var routes: [(name: String, route: ProviderRoute)] = []
        for config in all {
            routes.append((config.name, try config.makeOwnRoute(label: "apns \"\(config.name)\"", logger: logger, now: now)))
        }
        var senders: [String: APNsSender] = [:]
        for (name, route) in routes { senders[name] = route.sender as? APNsSender }
        let probes = routes.map(\.route.probe)
        // Channels are the app's: managed through the default configuration's credentials.
        var route = ProviderRoute(
            provider: .apns, sender: APNsConfigurationSender(senders: senders, defaultName: name, fallbacks: environmentFallbacks),
            format: .notification, pushType: pushType.rawValue, priority: priority.rawValue,
            certificateNotAfter: routes.compactMap(\.route.certificateNotAfter).min(),
            summary: routes.map { "\($0.name): \($0.route.summary)" }.joined(separator: "; "),
            probe: {
                var findings: [ProbeFinding] = []
                for probe in probes { findings.append(await probe()) }
                return ProbeFinding(ok: findings.allSatisfy(\.ok), message: findings.map(\.message).joined(separator: "; "))
            })
        route.broadcastChannels = routes.first?.route.broadcastChannels
        return route
    }

    /// This configuration's own client and sender; `label` starts its errors.
    private func makeOwnRoute(label: String, logger: Logger, now: Date) throws(ProviderSetupError) -> ProviderRoute {
        let credentials: APNsAppCredentials
        do {
            credentials = try APNsAppCredentials.load(auth, now: now)
        } catch {
            throw ProviderSetupError("\(label).auth: \(error)")
        }
        let client: APNsClient
        do {
            client = try APNsClient(
                configuration: APNsClientConfiguration(
                    endpoint: environment.endpoint, authentication: credentials.authentication, extraCAFile: environment.caFile,
                    // A custom endpoint with its own CA (apns-mock) trusts only that CA.
                    trustSystemRoots: environment.caFile == nil, connections: poolSize, logger: logger))
        } catch {
            throw ProviderSetupError("\(label): cannot create the APNs client: \(error)")
        }
        var summary = "\(auth) loaded; topic \(topic), \(environment)"
        if let notAfter = credentials.certificateNotAfter { summary += "; certificate valid until \(notAfter.ISO8601Format())" }
        let topic = topic
        var route = APNsDriver.route(client: client, topic: topic, pushType: pushType, priority: priority)
        route.certificateNotAfter = credentials.certificateNotAfter
        route.summary = summary
        route.probe = { await APNsProbe.run(client, topic: topic) }
        if case .token(let tokens) = credentials.authentication, let endpoint = channelManagementEndpoint {
            do {
                route.broadcastChannels = try APNsChannelManager(
                    endpoint: endpoint, bundleID: topic, tokens: tokens, caFile: environment.caFile, logger: logger)
            } catch {
                throw ProviderSetupError("\(label).channel_management: \(error)")
            }
        }
        return route
    }
}
