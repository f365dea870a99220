import Foundation

/// A parsed webhook body before it is known to be a message event: enough to find the app
/// (`app_id`) and decide whether to push (`category`). Parse once, then ask for the event.
///
/// ```swift
/// let envelope = try WebhookEnvelope(json: body)       // 400 on throw
/// guard envelope.isOfflineMessageEvent else { return .ok }  // acknowledged, ignored
/// let event = try envelope.offlineMessageEvent()        // 400 on throw
/// ```
public struct WebhookEnvelope: Sendable {
    public let category: String
    public let appID: String
    let root: [String: JSONValue]

    public init(json data: Data) throws(WebhookEventError) {
        let value: JSONValue
        do {
            value = try JSONValue.parse(data)
        } catch {
            throw .invalidJSON(String(describing: error))
        }
        guard let root = value.objectValue else { throw .invalidJSON("top-level value is not an object") }
        let reader = JSONObjectReader(root)
        self.category = try reader.requiredString("category")
        self.appID = try reader.requiredID("app_id")
        self.root = root
    }

    public var isOfflineMessageEvent: Bool { category == WebhookEvent.offlineMessageCategory }

    /// The full event; throws `.notOfflineMessageEvent` for other categories.
    public func offlineMessageEvent() throws(WebhookEventError) -> WebhookEvent {
        guard isOfflineMessageEvent else { throw .notOfflineMessageEvent(category: category) }
        return try WebhookEvent(JSONObjectReader(root))
    }
}
