/// Where a device token's pushes go, by the name its provider's driver registers (`apns`, `fcm`,
/// `hms`, …): what device tokens and deliveries are stored with. The relay's core knows no
/// provider by name; each provider's module declares its own identifier and describes itself
/// through its driver (`ProviderDriver`).
public struct PushProvider: RawRepresentable, Sendable, Hashable, Comparable, CustomStringConvertible {
    public let rawValue: String

    /// Nil for a name no driver could have: empty, longer than 32 bytes, or other than
    /// lowercase ASCII letters, digits and `_` (stored rows name providers this way).
    public init?(rawValue: String) {
        guard (1...32).contains(rawValue.utf8.count),
            rawValue.utf8.allSatisfy({ (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x5F })
        else { return nil }
        self.rawValue = rawValue
    }

    /// A driver's own name, a literal in its module.
    public init(_ name: StaticString) {
        guard let provider = PushProvider(rawValue: name.description) else { preconditionFailure("not a provider name: \(name)") }
        self = provider
    }

    public var description: String { rawValue }

    public static func < (lhs: PushProvider, rhs: PushProvider) -> Bool { lhs.rawValue < rhs.rawValue }
}
