import PushCore

/// The drivers a relay is built with, listed once at the composition root: where the REST
/// layer, the console, the metrics and the configuration find a provider by its id or its
/// Sendbird path name.
public struct ProviderCatalog: Sendable {
    public let drivers: [any ProviderDriver]
    private let byID: [PushProvider: ProviderDescription]

    public init(_ drivers: [any ProviderDriver]) {
        self.drivers = drivers
        var byID: [PushProvider: ProviderDescription] = [:]
        for driver in drivers {
            let description = driver.description
            precondition(byID[description.id] == nil, "two drivers for \(description.id)")
            precondition(
                !byID.values.contains { $0.sendbirdPath == description.sendbirdPath }, "two drivers for /push/\(description.sendbirdPath)")
            byID[description.id] = description
        }
        self.byID = byID
    }

    /// In the order listed.
    public var descriptions: [ProviderDescription] { drivers.map(\.description) }

    public func description(of provider: PushProvider) -> ProviderDescription? { byID[provider] }

    /// The provider of a path's `{token_type}`, any case.
    public func provider(sendbirdPath name: String) -> ProviderDescription? {
        let lowered = name.lowercased()
        return descriptions.first { $0.sendbirdPath == lowered }
    }

    /// How a provider is named to people: its driver's name, else its id.
    public func displayName(of provider: PushProvider) -> String { byID[provider]?.displayName ?? provider.rawValue }
}
