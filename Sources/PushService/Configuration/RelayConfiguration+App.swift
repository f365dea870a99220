import ConfigSupport
import ProviderDriver
import PushCore
import Yams

extension RelayConfiguration {
    /// One of `apps`, checked against the apps listed before it (`earlier`).
    static func parseApp(_ app: ConfigMapping, after earlier: [AppConfiguration], environment: ConfigurationEnvironment)
        throws(ConfigurationError) -> AppConfiguration
    {
        let catalog = ProviderCatalog.installed
        try app.allowOnly(
            Set(["app_id", "api_token", "webhook_secret", "templates", "limits", "badge_sync", "multi_device", "notifications"])
                .union(catalog.descriptions.map(\.id.rawValue)))
        guard let appID = try app.string("app_id") else { throw .missingKey(app.name("app_id")) }
        if let problem = IdentifierRules.problem(with: appID) {
            throw .invalidValue(key: app.name("app_id"), reason: "must be \(problem)")
        }
        guard let secret = try app.secret("api_token", environment: environment)?.0 else { throw .missingKey(app.name("api_token")) }
        let token = secret.value
        guard token.count >= AppConfiguration.minimumAPITokenLength else {
            throw .invalidValue(
                key: app.name("api_token"), reason: "must be at least \(AppConfiguration.minimumAPITokenLength) characters")
        }
        // Canonically equal spellings count as the same id here (`String ==`): the relay keys
        // per-app state by configured ids, and requests name their app by its exact bytes.
        if earlier.contains(where: { $0.appID == appID }) {
            throw .invalidValue(key: app.name("app_id"), reason: "\"\(appID)\" is listed twice")
        }
        // Two apps sharing a token could not be told apart by the Api-Token header.
        if earlier.contains(where: { $0.apiToken.value == token }) {
            throw .invalidValue(key: app.name("api_token"), reason: "is the same as another app's token")
        }
        let webhookSecret = try app.secret("webhook_secret", environment: environment)?.0
        if let webhookSecret, webhookSecret.value.count < AppConfiguration.minimumAPITokenLength {
            throw .invalidValue(
                key: app.name("webhook_secret"), reason: "must be at least \(AppConfiguration.minimumAPITokenLength) characters")
        }
        var providers = ProviderSettingsList()
        for driver in catalog.drivers {
            let key = driver.description.id.rawValue
            if case .sequence(let items)? = app.mapping[key] {
                providers[driver.description.id] = try driver.settings(
                    fromList: Array(items), path: app.name(key), environment: environment)
                continue
            }
            guard let section = try app.mapping(key) else { continue }
            providers[driver.description.id] = try driver.settings(from: section, environment: environment)
        }
        return AppConfiguration(
            appID: appID, apiToken: secret, webhookSecret: webhookSecret, providers: providers,
            templates: try app.mapping("templates").map(Self.parseTemplates) ?? PushTemplateSet.sendbirdDefaults,
            limits: try app.mapping("limits").map(Self.parseLimits) ?? AppLimits(), badgeSync: try app.badgeSync("badge_sync"),
            multiDevice: try Self.multiDevice(app, providers: providers),
            notifications: try app.mapping("notifications").map(Self.parseNotifications) ?? NotificationSettings())
    }

    /// `multi_device`, or its first name `push_when_online` in a provider's section (an app-wide
    /// choice that lived in the APNs block); both given, they must agree.
    private static func multiDevice(_ app: ConfigMapping, providers: ProviderSettingsList) throws(ConfigurationError) -> Bool {
        let legacy = providers.all.first { $0.pushOptions?.multiDevice == true }
        guard let value = try app.bool("multi_device") else { return legacy != nil }
        if let legacy, !value {
            throw .invalidValue(
                key: app.name("multi_device"),
                reason: "is false while \(legacy.provider).push_when_online is true: give only multi_device")
        }
        return value
    }
}
