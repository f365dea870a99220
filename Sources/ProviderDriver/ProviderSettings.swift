import ConfigSupport
import Foundation
import Logging
import PushCore

/// One app's settings for one provider, as its driver read them from `apps[].<id>`: what the
/// configuration checks ask of them, and the sender they build.
public protocol ProviderSettings: Sendable, Hashable {
    /// The driver that read them.
    var provider: PushProvider { get }
    /// Connections its pool may open.
    var poolSize: Int { get }
    /// Connections all its pools may open (each costs descriptors: `DescriptorBudget`); more
    /// than `poolSize` when it has several configurations, each with a pool.
    var connectionBudget: Int { get }
    /// The names a device token may be registered to (`push_configuration`), when the app has
    /// named configurations of the provider; empty: it has none to choose from.
    var configurationNames: [String] { get }
    /// Files holding its keys and secrets, whose modes are checked; keys are relative to its
    /// section (`auth.token.key_file`).
    var credentialFiles: [CredentialFile] { get }
    /// Keys (relative to its section) whose secret is written in the configuration file itself.
    var inlineSecretKeys: [String] { get }
    /// What in them is left from the example configuration.
    var examplePlaceholders: [ExamplePlaceholder] { get }
    /// App-wide push options its section sets (APNs' badge, sound, …); nil when it sets none.
    var pushOptions: AppPushOptions? { get }
    /// How long the app's pushes may wait before they expire, when its section says.
    var timeToLive: Duration? { get }
    /// The console's line about its credential.
    var credential: CredentialDescription { get }
    /// Reads its credentials and makes its sender; nothing connects until the first push.
    func makeRoute(logger: Logger, now: Date) throws(ProviderSetupError) -> ProviderRoute
    /// What the app's own settings refuse of a well-formed token at registration (Web Push: an
    /// endpoint outside the app's allowlist); nil: taken.
    func refusal(of token: String) -> TokenFormatProblem?
    /// Public values a client needs to register (Web Push's `application_server_key`), answered by
    /// `GET /v3/applications/push/{token_type}`; never a secret.
    var clientSettings: [String: String] { get }
}

extension ProviderSettings {
    public var inlineSecretKeys: [String] { [] }
    public var connectionBudget: Int { poolSize }
    public var configurationNames: [String] { [] }
    public var examplePlaceholders: [ExamplePlaceholder] { [] }
    public var pushOptions: AppPushOptions? { nil }
    public var timeToLive: Duration? { nil }
    public func refusal(of token: String) -> TokenFormatProblem? { nil }
    public var clientSettings: [String: String] { [:] }

    /// Equality across settings of any provider.
    public func isEqual(to other: any ProviderSettings) -> Bool { (other as? Self) == self }
}

/// Why a provider's settings could not build a sender (a credential file that is not a key, …);
/// the message starts with the key at fault (`apns.auth: …`).
public struct ProviderSetupError: Error, Sendable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}

/// The console's line about a provider's credential.
public struct CredentialDescription: Sendable, Hashable {
    public enum Lifetime: Sendable, Hashable {
        /// Lasts until something outside the relay ends it ("until revoked").
        case until(String)
        /// Ends when its certificate does (`ProviderRoute.certificateNotAfter`).
        case certificate
    }

    /// "Client certificate", "Service account key", …
    public var kind: String
    public var lifetime: Lifetime

    public init(kind: String, lifetime: Lifetime) {
        self.kind = kind
        self.lifetime = lifetime
    }
}

/// A value of the shipped example configuration still in an app's section: `check-config`
/// warns, naming the key (relative to the section) and what belongs there.
public struct ExamplePlaceholder: Sendable, Hashable {
    public var key: String
    public var value: String
    public var fix: String

    public init(key: String, value: String, fix: String) {
        self.key = key
        self.value = value
        self.fix = fix
    }
}
