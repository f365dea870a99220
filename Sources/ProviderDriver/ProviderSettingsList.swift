import PushCore

/// An app's provider settings, one per provider, in the order the drivers are listed; equal when
/// every provider's settings are.
public struct ProviderSettingsList: Sendable, Hashable {
    public private(set) var all: [any ProviderSettings]

    public init(_ settings: [any ProviderSettings] = []) {
        all = []
        for item in settings { self[item.provider] = item }
    }

    public var isEmpty: Bool { all.isEmpty }
    public var providers: [PushProvider] { all.map(\.provider) }

    public subscript(provider: PushProvider) -> (any ProviderSettings)? {
        get { all.first { $0.provider == provider } }
        set {
            let index = all.firstIndex { $0.provider == provider }
            switch (index, newValue) {
            case (let index?, let value?): all[index] = value
            case (let index?, nil): all.remove(at: index)
            case (nil, let value?): all.append(value)
            case (nil, nil): break
            }
        }
    }

    /// A provider's settings as its own type (its module's code and tests).
    public func settings<Settings: ProviderSettings>(_ type: Settings.Type) -> Settings? {
        all.lazy.compactMap { $0 as? Settings }.first
    }

    public static func == (lhs: ProviderSettingsList, rhs: ProviderSettingsList) -> Bool {
        lhs.all.count == rhs.all.count && zip(lhs.all, rhs.all).allSatisfy { $0.isEqual(to: $1) }
    }

    public func hash(into hasher: inout Hasher) {
        for item in all { item.hash(into: &hasher) }
    }
}
