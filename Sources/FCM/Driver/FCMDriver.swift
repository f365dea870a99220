import ConfigSupport
import ProviderDriver
import PushCore

extension PushProvider {
    /// Firebase Cloud Messaging (HTTP v1).
    public static let fcm = PushProvider("fcm")
}

/// FCM as the relay registers it: Sendbird's `gcm` token type, the Android data map, and
/// `apps[].fcm` read into `FCMAppConfiguration`.
public struct FCMDriver: ProviderDriver {
    public init() {}

    /// FCM registration tokens seen are 140 to 200 characters of `[A-Za-z0-9_-]` with one `:`.
    /// 255: the longest id a path may carry.
    public static let tokenFormat = OpaqueTokenFormat(lengths: 20...255, punctuation: "_-:.")

    public var description: ProviderDescription {
        ProviderDescription(
            id: .fcm, displayName: "FCM", sendbirdPath: "gcm", sendbirdType: "GCM", tokenField: "gcm_reg_token",
            tokenFormat: Self.tokenFormat, payloadFormat: .dataMessage(DataMapSize()),
            logFields: DeliveryLogFields(messageName: true))
    }

    public func settings(from map: ConfigMapping, environment: ConfigurationEnvironment) throws(ConfigurationError)
        -> any ProviderSettings
    {
        try FCMAppConfiguration.parse(map, environment: environment)
    }
}

extension FCMDriver {
    /// A route through `client`: deliveries stored with the provider's name and high priority.
    public static func route(client: FCMClient) -> ProviderRoute {
        ProviderRoute(provider: .fcm, sender: FCMSender(client: client), format: .dataMessage(DataMapSize()), pushType: "fcm")
    }
}
