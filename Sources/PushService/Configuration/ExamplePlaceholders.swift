import ProviderDriver

/// The example values the shipped configurations and the documents carry
/// (`Config/push-relay.yaml`, the package's, docs/operations.md): a configuration copied and
/// not yet edited still holds them, and `check-config` says so. Each provider's settings name
/// their own (`ProviderSettings.examplePlaceholders`), against the provider itself only: a mock
/// (`url:`) takes whatever it was started with.
public enum ExamplePlaceholders {
    static let appIDs: Set<String> = ["00000000-0000-4000-8000-000000000001", "9DA1B1F4-0D9B-4F3C-A2B3-6C0C1E9A7F00"]

    /// One line per placeholder still in `configuration`, naming its key and what to put there.
    public static func findings(in configuration: RelayConfiguration) -> [(appID: String, message: String)] {
        var found: [(String, String)] = []
        for (index, app) in configuration.apps.enumerated() {
            let name = "apps[\(index)]"
            func add(_ key: String, _ value: String, _ fix: String) {
                found.append((app.appID, "\(name).\(key) is still the example's \(value): \(fix)"))
            }
            if appIDs.contains(app.appID) { add("app_id", app.appID, "set the app's Sendbird application id") }
            for settings in app.providers.all {
                for placeholder in settings.examplePlaceholders {
                    add("\(settings.provider).\(placeholder.key)", placeholder.value, placeholder.fix)
                }
            }
        }
        return found
    }
}
