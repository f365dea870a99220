/// Why a webhook body cannot be turned into a `WebhookEvent`. Each case names the field (as a
/// dotted path such as `payload.message_id` or `members[2].user_id`) so the HTTP layer can answer
/// a precise 400.
public enum WebhookEventError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The body is not JSON, or not a JSON object.
    case invalidJSON(String)
    /// A required field is absent or null.
    case missingField(String)
    /// A field is present but has the wrong type or an unusable value.
    case invalidField(String, expected: String)
    /// `members` is absent: the app must enable "Include member information" on its webhook.
    case membersMissing
    /// The event's category is not one that carries a message to push.
    case notOfflineMessageEvent(category: String)

    public var field: String? {
        switch self {
        case .missingField(let field), .invalidField(let field, _): field
        case .membersMissing: "members"
        case .invalidJSON, .notOfflineMessageEvent: nil
        }
    }

    public var description: String {
        switch self {
        case .invalidJSON(let detail):
            "webhook body is not a JSON object: \(detail)"
        case .missingField(let field):
            "webhook field \"\(field)\" is missing"
        case .invalidField(let field, let expected):
            "webhook field \"\(field)\" is invalid: expected \(expected)"
        case .membersMissing:
            "member information must be included in the webhook"
        case .notOfflineMessageEvent(let category):
            "webhook category \"\(category)\" is not group_channel:message_send"
        }
    }
}
