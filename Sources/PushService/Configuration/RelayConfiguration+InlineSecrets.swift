import ConfigSupport
import Foundation

extension RelayConfiguration {
    /// Every key whose secret is written in the configuration file itself (inline, or a password
    /// in `database.postgres.url`), in file order: the file is then as secret as they are.
    public var inlineSecretKeys: [String] {
        var keys: [String] = []
        func secret(_ secret: Secret?, _ key: String) {
            if case .inline? = secret?.source { keys.append(key) }
        }
        secret(metrics.token, "metrics.token")
        if case .postgres(let settings) = database.backend { secret(settings.password, "database.postgres.password") }
        for (index, app) in apps.enumerated() {
            let name = "apps[\(index)]"
            secret(app.apiToken, "\(name).api_token")
            // Without its own key the webhook secret is the API token, reported as such.
            if app.webhookSecret != app.apiToken { secret(app.webhookSecret, "\(name).webhook_secret") }
            for settings in app.providers.all {
                keys += settings.inlineSecretKeys.map { "\(name).\(settings.provider).\($0)" }
            }
        }
        for (index, user) in console.users.enumerated() { secret(user.secret, "console.users[\(index)].secret") }
        return keys
    }

    /// A warning when the file at `path` holds secrets inline and more than its owner (or, for a
    /// file of root's, its group) can read it: judged as a `{file:}` secret would be, but only a
    /// warning, since a configuration file is often readable by everyone on purpose (the unit's
    /// `DynamicUser=` cannot be granted a group). The fix is to move the secrets out.
    static func inlineSecretWarning(
        path: String, keys: [String], access: (String) -> FileExposure.Access? = FileExposure.access(ofFileAt:)
    ) -> String? {
        guard !keys.isEmpty, let found = access(path) else { return nil }
        let readers: String
        switch FileExposure.of(found) {
        case .everyoneReadable: readers = "every user"
        case .groupReadable: readers = "its group"
        case .private: return nil
        }
        return "\(path) holds secrets inline (\(keys.joined(separator: ", "))) and is readable by \(readers) "
            + "(mode 0\(String(found.mode, radix: 8))): move each to a credential file ({credential: NAME}) or make the file private"
    }
}
