import ConfigSupport
import PushCore
import Yams

/// What a push provider's module implements to join the relay: it describes itself (names,
/// token format, payload format, labels) and reads its section of an app's configuration
/// (`apps[].<id>`) into settings that build its sender. The composition root lists the drivers
/// once (`ProviderCatalog`); nothing outside a provider's module names it. In the spirit of
/// Hummingbird's `PersistDriver`: a small protocol in the core, a driver beside each backend.
public protocol ProviderDriver: Sendable {
    var description: ProviderDescription { get }

    /// `apps[i].<id>`, checked key by key (files and secrets are resolved, keys not yet read).
    func settings(from map: ConfigMapping, environment: ConfigurationEnvironment) throws(ConfigurationError) -> any ProviderSettings

    /// `apps[i].<id>` written as a list: several named configurations of the provider (APNs').
    /// `path` names the section in errors.
    func settings(fromList items: [Node], path: String, environment: ConfigurationEnvironment) throws(ConfigurationError)
        -> any ProviderSettings
}

extension ProviderDriver {
    /// A provider with one configuration per app refuses a list.
    public func settings(fromList items: [Node], path: String, environment: ConfigurationEnvironment) throws(ConfigurationError)
        -> any ProviderSettings
    {
        throw .invalidValue(key: path, reason: "must be a mapping of keys to values")
    }
}
