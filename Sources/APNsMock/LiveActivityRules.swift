import MockSupport

/// What Apple documents for a Live Activity push (`apns-push-type: liveactivity`, ActivityKit
/// "Starting and updating Live Activities with ActivityKit push notifications"): the topic is the
/// bundle id with `.push-type.liveactivity`; `aps` carries `timestamp` (seconds) and `event`
/// (`start`, `update` or `end`); `content-state` for a start or an update; `attributes-type` and
/// `attributes` to start one (push-to-start); `stale-date` and `dismissal-date` in seconds;
/// `relevance-score` any number (it orders an app's activities, unlike a notification's 0…1). Pure.
enum LiveActivityRules {
    static let topicSuffix = ".push-type.liveactivity"
    static let events: Set<String> = ["start", "update", "end"]

    static func allowsTopic(_ topic: String) -> Bool {
        topic.hasSuffix(topicSuffix) && topic.count > topicSuffix.count
    }

    /// The first key that breaks the rules (a missing one included), or nil.
    static func violation(in aps: [String: JSONValue]) -> String? {
        guard case .integer? = aps["timestamp"] else { return "timestamp" }
        guard let event = aps["event"]?.stringValue, events.contains(event) else { return "event" }
        if event != "end", !isObject(aps["content-state"]) { return "content-state" }
        if event == "end", let state = aps["content-state"], !isObject(state) { return "content-state" }
        if event == "start" {
            guard aps["attributes-type"]?.stringValue?.isEmpty == false else { return "attributes-type" }
            guard isObject(aps["attributes"]) else { return "attributes" }
        }
        for key in ["stale-date", "dismissal-date", "input-push-token"] {
            if let value = aps[key], !APSDictionaryRules.isInteger(value) { return key }
        }
        if let channel = aps["input-push-channel"], channel.stringValue == nil { return "input-push-channel" }
        if let score = aps["relevance-score"], !isNumber(score) { return "relevance-score" }
        if let alert = aps["alert"], !APSDictionaryRules.isAlert(alert) { return "alert" }
        return nil
    }

    static func isObject(_ value: JSONValue?) -> Bool {
        if case .object? = value { return true }
        return false
    }

    static func isNumber(_ value: JSONValue) -> Bool {
        switch value {
        case .integer, .number: true
        default: false
        }
    }
}
