import ConfigSupport
import PushCore

/// An app's APNs settings (`apps[].apns`): where and how to push, and the payload options.
public struct APNsAppConfiguration: Sendable, Hashable {
    /// `apns-topic`: the app's bundle id.
    public var topic: String
    public var environment: APNsEnvironmentSetting
    public var auth: APNsAuthSetting
    /// Connections in the app's pool (`ProviderPoolSize`).
    public var poolSize: Int
    public var pushType: APNsPushType
    public var priority: APNsPriority
    /// How long a push may wait before it is dropped (apns-expiration and queue time).
    public var defaultExpiration: Duration
    /// Badge, sound, mutable-content, admin messages, … .
    public var options: AppPushOptions

    public static let defaultExpiration: Duration = .seconds(86_400)

    public init(
        topic: String, environment: APNsEnvironmentSetting, auth: APNsAuthSetting,
        poolSize: Int = ProviderPoolSize.defaultSize, pushType: APNsPushType = .alert,
        priority: APNsPriority = .immediate, defaultExpiration: Duration = APNsAppConfiguration.defaultExpiration,
        options: AppPushOptions = AppPushOptions()
    ) {
        self.topic = topic
        self.environment = environment
        self.auth = auth
        self.poolSize = poolSize
        self.pushType = pushType
        self.priority = priority
        self.defaultExpiration = defaultExpiration
        self.options = options
    }
}
