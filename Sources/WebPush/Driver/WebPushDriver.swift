import ConfigSupport
import ProviderDriver
import PushCore

extension PushProvider {
    /// Web Push (RFC 8030, 8291, 8292): browsers and installed web apps.
    public static let webPush = PushProvider("webpush")
}

/// Web Push as the relay registers it: a browser's subscription object under `subscription`,
/// the notification payload (made declarative at the send), and `apps[].webpush`.
public struct WebPushDriver: ProviderDriver {
    public init() {}

    public var description: ProviderDescription {
        ProviderDescription(
            id: .webPush, displayName: "Web Push", sendbirdPath: "webpush", sendbirdType: "webpush", tokenField: "subscription",
            tokenFormat: WebPushTokenFormat(), payloadFormat: .notification)
    }

    public func settings(from map: ConfigMapping, environment: ConfigurationEnvironment) throws(ConfigurationError)
        -> any ProviderSettings
    {
        try WebPushAppConfiguration.parse(map, environment: environment)
    }

    /// A route through `client`: deliveries stored as `webpush`, urgent (chat messages).
    public static func route(client: WebPushClient) -> ProviderRoute {
        ProviderRoute(provider: .webPush, sender: WebPushSender(client: client), format: .notification, pushType: "webpush")
    }
}
