import FCM
import HMS

/// The example values the shipped configurations and the documents carry
/// (`Config/push-relay.yaml`, the package's, docs/operations.md): a configuration copied and
/// not yet edited still holds them, and `check-config` says so. Provider values count only
/// against the provider itself: a mock (`url:`) takes whatever it was started with.
public enum ExamplePlaceholders {
    static let appIDs: Set<String> = ["00000000-0000-4000-8000-000000000001", "9DA1B1F4-0D9B-4F3C-A2B3-6C0C1E9A7F00"]
    static let keyID = "ABC123DEFG"
    static let teamID = "DEF123GHIJ"
    /// Bundle ids under `example.com` (RFC 2606's, reversed): `com.example.chat`, `com.example.app`.
    static let topicPrefix = "com.example."
    static let fcmProjectID = "my-app-1234"
    static let hmsAppID = "104783201"

    /// One line per placeholder still in `configuration`, naming its key and what to put there.
    public static func findings(in configuration: RelayConfiguration) -> [(appID: String, message: String)] {
        var found: [(String, String)] = []
        for (index, app) in configuration.apps.enumerated() {
            let name = "apps[\(index)]"
            func add(_ key: String, _ value: String, _ fix: String) {
                found.append((app.appID, "\(name).\(key) is still the example's \(value): \(fix)"))
            }
            if appIDs.contains(app.appID) { add("app_id", app.appID, "set the app's Sendbird application id") }
            if let apns = app.apns, apns.environment == .production || apns.environment == .sandbox {
                if apns.topic.hasPrefix(topicPrefix) { add("apns.topic", apns.topic, "set the iOS app's bundle id") }
                if case .token(_, let keyID, let teamID) = apns.auth {
                    if keyID == Self.keyID { add("apns.auth.token.key_id", keyID, "set the id of the .p8 key (from Apple)") }
                    if teamID == Self.teamID { add("apns.auth.token.team_id", teamID, "set the Apple developer team's id") }
                }
            }
            if let fcm = app.fcm, fcm.endpoint == FCMClientConfiguration.production, fcm.projectID == fcmProjectID {
                add("fcm.project_id", fcmProjectID, "set the Firebase project, or leave it out to use the service account's")
            }
            if let hms = app.hms, hms.endpoint == HMSClientConfiguration.defaultEndpoint, hms.appID == hmsAppID {
                add("hms.app_id", hmsAppID, "set the AppGallery Connect app's id")
            }
        }
        return found
    }
}
