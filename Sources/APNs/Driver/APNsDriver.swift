import ConfigSupport
import ProviderDriver
import PushCore
import Yams

extension PushProvider {
    /// Apple Push Notification service.
    public static let apns = PushProvider("apns")
}

/// APNs as the relay registers it: Sendbird's `apns` token type, the notification payload, and
/// `apps[].apns` read into `APNsAppConfiguration`.
public struct APNsDriver: ProviderDriver {
    public init() {}

    public var description: ProviderDescription {
        ProviderDescription(
            id: .apns, displayName: "APNs", sendbirdPath: "apns", sendbirdType: "APNS", tokenField: "apns_device_token",
            tokenFormat: APNsTokenFormat(), payloadFormat: .notification,
            testPushType: APNsPushType.alert.rawValue, logFields: DeliveryLogFields(pushIDIsProviderID: true),
            liveActivityPushType: APNsPushType.liveactivity.rawValue, broadcastPushType: APNsSender.broadcastPushType)
    }

    public func settings(from map: ConfigMapping, environment: ConfigurationEnvironment) throws(ConfigurationError)
        -> any ProviderSettings
    {
        try APNsAppConfiguration.parse(map, environment: environment)
    }

    public func settings(fromList items: [Node], path: String, environment: ConfigurationEnvironment) throws(ConfigurationError)
        -> any ProviderSettings
    {
        try APNsAppConfiguration.parse(list: items, path: path, environment: environment)
    }
}

extension APNsDriver {
    /// A route through `client` (the settings' own, or a test's and a benchmark's).
    public static func route(
        client: APNsClient, topic: String, pushType: APNsPushType = .alert, priority: APNsPriority = .immediate
    ) -> ProviderRoute {
        ProviderRoute(
            provider: .apns, sender: APNsSender(client: client, topic: topic, defaultPushType: pushType, defaultPriority: priority),
            format: .notification, pushType: pushType.rawValue, priority: priority.rawValue)
    }
}
