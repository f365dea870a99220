import ConfigSupport
import HTTP2Transport
import PushCore

/// An app's APNs settings (`apps[].apns`): where and how to push, and the payload options. An app
/// with several configurations (a list under `apps[].apns`: a production and a sandbox build, a
/// second bundle) holds its default here and the others in `others`.
public struct APNsAppConfiguration: Sendable, Hashable {
    /// The name a device token is registered to it by (`push_configuration`); `default` when the
    /// app has one configuration.
    public var name: String
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
    /// The app's other configurations, each with its own topic, environment, credentials and
    /// pool; the push type, priority, expiration and payload options are the default's, so one
    /// payload serves every configuration. Empty: the app has one.
    public var others: [APNsAppConfiguration]
    /// `channel_management`: where broadcast channels are managed, for a custom endpoint
    /// (apns-mock's `--manage-port`); Apple's hosts follow from the environment.
    public var channelManagement: TransportEndpoint?

    public static let defaultExpiration: Duration = .seconds(86_400)
    public static let defaultName = "default"

    public init(
        topic: String, environment: APNsEnvironmentSetting, auth: APNsAuthSetting,
        poolSize: Int = ProviderPoolSize.defaultSize, pushType: APNsPushType = .alert,
        priority: APNsPriority = .immediate, defaultExpiration: Duration = APNsAppConfiguration.defaultExpiration,
        options: AppPushOptions = AppPushOptions(), name: String = APNsAppConfiguration.defaultName,
        others: [APNsAppConfiguration] = []
    ) {
        self.name = name
        self.others = others
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
