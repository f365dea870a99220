import Foundation

extension NotificationContent {
    /// The stored form: compact JSON with the API's field names, sorted keys.
    public var stored: String {
        var object: [String: JSONValue] = [:]
        func put(_ text: NotificationText, into target: inout [String: JSONValue]) {
            target["body"] = .string(text.body)
            if let title = text.title { target["title"] = .string(title) }
        }
        put(texts.standard, into: &object)
        if !texts.translations.isEmpty {
            object["translations"] = .object(
                texts.translations.mapValues { text in
                    var entry: [String: JSONValue] = [:]
                    put(text, into: &entry)
                    return .object(entry)
                })
        }
        if let data { object["data"] = .object(data) }
        if let deepLink { object["deep_link"] = .string(deepLink) }
        if let category { object["category"] = .string(category) }
        if let sound { object["sound"] = .string(sound) }
        if let badge { object["badge"] = .int(Int64(badge)) }
        if let interruptionLevel { object["interruption_level"] = .string(interruptionLevel.rawValue) }
        if let collapseKey { object["collapse_key"] = .string(collapseKey) }
        if let timeToLiveSeconds { object["ttl"] = .int(Int64(timeToLiveSeconds)) }
        return JSONWriter.string(.object(object))
    }

    /// From the stored form; nil when it is not one (a store edited by hand).
    public init?(stored: String) {
        guard case .object(let object)? = try? JSONValue.parse(Data(stored.utf8)) else { return nil }
        func text(_ object: [String: JSONValue]) -> NotificationText? {
            guard case .string(let body)? = object["body"] else { return nil }
            if case .string(let title)? = object["title"] { return NotificationText(title: title, body: body) }
            return NotificationText(body: body)
        }
        guard let standard = text(object) else { return nil }
        var translations: [String: NotificationText] = [:]
        if case .object(let all)? = object["translations"] {
            for (code, value) in all {
                if case .object(let entry) = value, let text = text(entry) { translations[code] = text }
            }
        }
        func string(_ key: String) -> String? {
            if case .string(let value)? = object[key] { return value }
            return nil
        }
        func int(_ key: String) -> Int? {
            if case .int(let value)? = object[key] { return Int(exactly: value) }
            return nil
        }
        var data: [String: JSONValue]?
        if case .object(let value)? = object["data"] { data = value }
        self.init(
            texts: NotificationTexts(standard: standard, translations: translations), data: data, deepLink: string("deep_link"),
            category: string("category"), sound: string("sound"), badge: int("badge"),
            interruptionLevel: string("interruption_level").flatMap(InterruptionLevel.init(rawValue:)),
            collapseKey: string("collapse_key"), timeToLiveSeconds: int("ttl"))
    }
}
