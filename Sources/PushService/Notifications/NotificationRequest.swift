import Foundation
import PushCore
import StoreContract

/// `POST /v3/notifications`'s body, checked: who, what (literal texts or a template of the app's),
/// when and how fast. Every mistake is a 400 naming the field; nothing is stored for one.
struct NotificationRequest: Sendable {
    var audience: NotificationAudience
    var content: NotificationContent
    var sendAtMs: Int64
    var localTime: LocalTimeOfDay?
    var pushesPerMinute: Int?

    /// Users listed in one request.
    static let maximumUsers = 10_000
    /// The body of a request listing users: 10,000 ids take more than the relay's usual limit
    /// (`http.max_body_bytes`), and only the app's server may send one.
    static let maximumBodyBytes = 2 * 1024 * 1024
    /// `send_at` at most this far ahead.
    static let maximumLeadMs: Int64 = 90 * 86_400_000
    /// The app's `data`, as compact JSON (the payload holds 4,096 bytes in all).
    static let maximumDataBytes = 2048
    /// A template's variables.
    static let maximumVariables = 100
    static let maximumVariableBytes = 1024

    init(_ body: JSONObject, settings: NotificationSettings, nowMs: Int64) throws(APIError) {
        audience = try Self.audience(body)
        content = NotificationContent(texts: try Self.texts(body, templates: settings.templates))
        sendAtMs = nowMs
        if let at = try body.integer("send_at", in: 0...(nowMs + Self.maximumLeadMs)) { sendAtMs = max(nowMs, Int64(at)) }
        if let text = try body.string("local_time") {
            guard let time = LocalTimeOfDay(text) else { throw .invalidValue("local_time", "must be a time of day as HH:MM (24-hour)") }
            localTime = time
        }
        let pace = NotificationSettings.pushesPerMinuteRange
        pushesPerMinute =
            try body.integer("pushes_per_minute", in: Int64(pace.lowerBound)...Int64(pace.upperBound)) ?? settings.pushesPerMinute
        try readPresentation(body)
    }

    /// `user_ids` or `topic`, exactly one.
    private static func audience(_ body: JSONObject) throws(APIError) -> NotificationAudience {
        let users = try body.array("user_ids")
        let topic = try body.string("topic")
        switch (users, topic) {
        case (let users?, nil):
            guard (1...maximumUsers).contains(users.count) else {
                throw .invalidValue("user_ids", "must list 1 to \(maximumUsers) user ids")
            }
            var ids: [String] = []
            ids.reserveCapacity(users.count)
            for (index, item) in users.enumerated() {
                guard case .string(let id) = item else { throw .wrongType("user_ids[\(index)]", expected: .string) }
                ids.append(try RequestParameter.checked("user_ids[\(index)]", id))
            }
            return .listing(ids)
        case (nil, let topic?): return .topic(try TopicName.checked(topic))
        case (nil, nil): throw .missing("user_ids\" or \"topic")
        case (.some, .some): throw .invalidValue("topic", "cannot be given with \"user_ids\": name one audience")
        }
    }

    /// The literal `title`/`body`/`translations`, or the app's `template` filled with `variables`.
    private static func texts(_ body: JSONObject, templates: [String: NotificationTemplate]) throws(APIError) -> NotificationTexts {
        guard let name = try body.string("template") else {
            guard body.contains("body") else { throw .missing("body\" or \"template") }
            if body.contains("variables") { throw .invalidValue("variables", "need a \"template\"") }
            return NotificationTexts(standard: try text(body), translations: try translations(body))
        }
        for field in ["title", "body", "translations"] where body.contains(field) {
            throw .invalidValue(field, "cannot be given with \"template\": the template has the texts")
        }
        guard let template = templates[name] else {
            throw APIError(code: .notFound, message: "The app has no notification template of this name.")
        }
        let variables = try self.variables(body)
        do {
            return try template.render(variables)
        } catch .missingVariable(let variable) {
            throw .invalidValue(
                "variables", "must give \(JSONWriter.string(.string(String(variable.prefix(64))))), which the template uses")
        } catch {
            throw .invalidValue("template", "has a \"{\" without its \"}\"")
        }
    }

    private static func variables(_ body: JSONObject) throws(APIError) -> [String: String] {
        guard let object = try body.object("variables") else { return [:] }
        guard object.fields.count <= maximumVariables else {
            throw .invalidValue("variables", "must hold at most \(maximumVariables) values")
        }
        var values: [String: String] = [:]
        for (key, value) in object.fields {
            switch value {
            case .string(let text) where text.utf8.count <= maximumVariableBytes: values[key] = text
            case .int(let number): values[key] = String(number)
            default: throw .invalidValue("variables", "must hold strings of at most \(maximumVariableBytes) bytes, or integers")
            }
        }
        return values
    }

    static func text(_ object: JSONObject) throws(APIError) -> NotificationText {
        guard let body = try object.string("body") else { throw .missing(object.name("body")) }
        guard (1...NotificationSettings.maximumBodyBytes).contains(body.utf8.count) else {
            throw .tooLong(object.name("body"), maximumBytes: NotificationSettings.maximumBodyBytes)
        }
        let title = try object.string("title")
        if let title, !(1...NotificationSettings.maximumTitleBytes).contains(title.utf8.count) {
            throw .tooLong(object.name("title"), maximumBytes: NotificationSettings.maximumTitleBytes)
        }
        return NotificationText(title: title, body: body)
    }

    private static func translations(_ body: JSONObject) throws(APIError) -> [String: NotificationText] {
        guard let object = try body.object("translations") else { return [:] }
        guard object.fields.count <= NotificationSettings.maximumTranslations else {
            throw .invalidValue("translations", "must hold at most \(NotificationSettings.maximumTranslations) languages")
        }
        var texts: [String: NotificationText] = [:]
        for code in object.fields.keys {
            guard (try? PreferredLanguages([code])) != nil else {
                throw .invalidValue("translations", "must be keyed by language codes such as \"de\" or \"pt-BR\"")
            }
            guard let entry = try object.object(code) else { throw .wrongType(object.name(code), expected: .object) }
            texts[code] = try text(entry)
        }
        return texts
    }
}
