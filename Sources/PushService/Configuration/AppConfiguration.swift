import ConfigSupport
import ProviderDriver
import PushCore

/// One app (tenant) the relay serves (`apps[]`). All stored data is scoped by `appID`.
public struct AppConfiguration: Sendable, Hashable, CustomStringConvertible {
    /// Sendbird application id; webhooks name it in `app_id`.
    public var appID: String
    /// The master API token: authenticates REST calls (`Api-Token`) and manages secondary tokens.
    public var apiToken: Secret
    /// The key of the webhook signature (`x-sendbird-signature`): `webhook_secret` when
    /// configured, else the master API token, as Sendbird signs with it.
    public var webhookSecret: Secret
    /// Each provider's settings (`apps[].<provider>`), read by its driver; an app without a
    /// provider's can register its tokens, which get no pushes.
    public var providers: ProviderSettingsList
    /// The app's push templates: `default` and `alternative` (users choose between them) and
    /// templates by channel custom type. A template changed through the REST API wins over its
    /// configured texts; Sendbird's texts stand in for everything not configured.
    public var templates: PushTemplateSet
    /// What one request of this app may cost (members per event, stored preferences).
    public var limits: AppLimits
    /// Badge pushes on message reads (`badge_sync`); nil when off.
    public var badgeSync: BadgeSyncSetting?
    /// `multi_device`: Sendbird's "push notifications with multi-device support" (every device of
    /// a member, online elsewhere or not) rather than plain "push notifications" (only members
    /// offline on every device). Every provider alike.
    public var multiDevice: Bool
    /// Notification templates and the pace of large sends (`POST /v3/notifications`).
    public var notifications: NotificationSettings

    /// Shortest accepted API token or webhook secret; Sendbird's tokens are 40 hex characters.
    public static let minimumAPITokenLength = 16

    public init(
        appID: String, apiToken: Secret, webhookSecret: Secret? = nil, providers: ProviderSettingsList = ProviderSettingsList(),
        templates: PushTemplateSet = .sendbirdDefaults, limits: AppLimits = AppLimits(), badgeSync: BadgeSyncSetting? = nil,
        multiDevice: Bool = false, notifications: NotificationSettings = NotificationSettings()
    ) {
        self.appID = appID
        self.apiToken = apiToken
        self.webhookSecret = webhookSecret ?? apiToken
        self.providers = providers
        self.templates = templates
        self.limits = limits
        self.badgeSync = badgeSync
        self.multiDevice = multiDevice
        self.notifications = notifications
    }

    public var description: String { "app \(appID) (api_token \(apiToken))" }
}
