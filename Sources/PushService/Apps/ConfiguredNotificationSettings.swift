import Synchronization

/// Each app's `notifications` section as it is now: SIGHUP replaces it (`RelayApplication.reload`),
/// so a template added to the file is usable without a restart.
public final class ConfiguredNotificationSettings: Sendable {
    private let byApp: Mutex<[String: NotificationSettings]>

    public init(apps: [AppConfiguration]) {
        byApp = Mutex(Self.index(apps))
    }

    /// The app's settings; none (no templates, no pace) for an app the configuration does not name.
    public func settings(forApp appID: String) -> NotificationSettings {
        byApp.withLock { $0[appID] } ?? NotificationSettings()
    }

    public func replace(with apps: [AppConfiguration]) {
        let fresh = Self.index(apps)
        byApp.withLock { $0 = fresh }
    }

    private static func index(_ apps: [AppConfiguration]) -> [String: NotificationSettings] {
        Dictionary(apps.map { ($0.appID, $0.notifications) }, uniquingKeysWith: { first, _ in first })
    }
}
