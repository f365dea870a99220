import ConfigSupport
import PushCore

/// What a push provider's module implements to join the relay: it describes itself (names,
/// token format, payload format, labels) and reads its section of an app's configuration
/// (`apps[].<id>`) into settings that build its sender. The composition root lists the drivers
/// once (`ProviderCatalog`); nothing outside a provider's module names it. In the spirit of
/// Hummingbird's `PersistDriver`: a small protocol in the core, a driver beside each backend.
public protocol ProviderDriver: Sendable {
    var description: ProviderDescription { get }

    /// `apps[i].<id>`, checked key by key (files and secrets are resolved, keys not yet read).
    func settings(from map: ConfigMapping, environment: ConfigurationEnvironment) throws(ConfigurationError) -> any ProviderSettings
}
