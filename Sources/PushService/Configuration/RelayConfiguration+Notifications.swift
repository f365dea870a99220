import ConfigSupport
import PushCore

extension RelayConfiguration {
    /// An app's `notifications` section.
    static func parseNotifications(_ section: ConfigMapping) throws(ConfigurationError) -> NotificationSettings {
        try section.allowOnly(["templates", "pushes_per_minute"])
        var settings = NotificationSettings()
        if let pace = try section.int("pushes_per_minute") {
            guard NotificationSettings.pushesPerMinuteRange.contains(pace) else {
                throw .invalidValue(
                    key: section.name("pushes_per_minute"), reason: "must be 1 to \(NotificationSettings.pushesPerMinuteRange.upperBound)")
            }
            settings.pushesPerMinute = pace
        }
        guard let templates = try section.mapping("templates") else { return settings }
        for name in templates.keys {
            guard NotificationSettings.isTemplateName(name) else {
                throw .invalidValue(key: templates.name(name), reason: "is not a template name (1 to 64 letters, digits, _, - and .)")
            }
            let template = try templates.requiredMapping(name)
            try template.allowOnly(["title", "body", "translations"])
            var translations: [String: NotificationText] = [:]
            if let languages = try template.mapping("translations") {
                for code in languages.keys {
                    guard (try? PreferredLanguages([code])) != nil else {
                        throw .invalidValue(key: languages.name(code), reason: "is not a language code such as de or pt-BR")
                    }
                    let entry = try languages.requiredMapping(code)
                    try entry.allowOnly(["title", "body"])
                    translations[code] = try notificationText(entry)
                }
            }
            let parsed = NotificationTemplate(
                texts: NotificationTexts(standard: try notificationText(template), translations: translations))
            // A placeholder left open is a mistake in the file, found now rather than at each send.
            do {
                _ = try parsed.render(Dictionary(uniqueKeysWithValues: parsed.variableNames.map { ($0, "") }))
            } catch {
                throw .invalidValue(key: templates.name(name), reason: "has a \"{\" without its \"}\" (write {{ for a brace)")
            }
            settings.templates[name] = parsed
        }
        return settings
    }

    private static func notificationText(_ entry: ConfigMapping) throws(ConfigurationError) -> NotificationText {
        guard let body = try entry.string("body"), !body.isEmpty else { throw .missingKey(entry.name("body")) }
        let title = try entry.string("title")
        guard body.utf8.count <= NotificationSettings.maximumBodyBytes,
            (title?.utf8.count ?? 0) <= NotificationSettings.maximumTitleBytes
        else {
            throw .invalidValue(
                key: entry.name("body"),
                reason:
                    "and title must be at most \(NotificationSettings.maximumBodyBytes) and \(NotificationSettings.maximumTitleBytes) bytes"
            )
        }
        return NotificationText(title: title, body: body)
    }
}
