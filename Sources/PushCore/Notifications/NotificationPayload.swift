import Foundation

/// Builds a notification's payload for one user, in each format the app's providers take:
///
/// - the notification form (APNs, Web Push):
///   `{"aps": {"alert": {"title": …, "body": …}, "sound": …, "badge": …, "category": …,
///   "interruption-level": …}, "push_notification": {"id": 42, "push_tracking_id": "-42-…",
///   "deep_link": …, "data": {…}}}`;
/// - the data-message form (FCM, HMS): a `data` map `{"title": …, "body": …, "push_notification": "<the
///   same object as a JSON string>"}` (FCM reserves `notification` in a data map).
///
/// `push_tracking_id` names this notification's push to this user, as in a chat push: the device
/// acknowledges it and reports clicks with it (`POST /v3/sdk/push_delivery`). When a payload is
/// over its provider's limit, the body is cut on a character boundary with "…", as a chat
/// message's text is; when even an empty body does not fit, `PayloadError.tooLarge`.
public struct NotificationPayload: Sendable {
    public let content: NotificationContent
    public let notificationID: Int64
    /// The app's default sound, when the notification names none.
    public let defaultSound: String?
    /// The notification form's limit.
    public let maximumBytes: Int
    /// `aps.mutable-content: 1`, as in the app's chat pushes (`AppPushOptions.mutableContent`): the
    /// app's notification service extension runs (and can acknowledge the push).
    public let mutableContent: Bool

    public init(
        content: NotificationContent, notificationID: Int64, defaultSound: String?, maximumBytes: Int = 4096,
        mutableContent: Bool = false
    ) {
        self.content = content
        self.notificationID = notificationID
        self.defaultSound = defaultSound
        self.maximumBytes = maximumBytes
        self.mutableContent = mutableContent
    }

    /// The message id the notification's deliveries, decisions and tracking ids carry: the
    /// notification's id, negated, so it can never be a chat message's.
    public static func messageID(ofNotification id: Int64) -> Int64 { -id }

    /// The notification a message id names; nil for a chat message's (or a push of none: 0).
    public static func notificationID(ofMessage id: Int64) -> Int64? { id < 0 && id != .min ? -id : nil }

    /// The notification form for `user`.
    public func notification(_ text: NotificationText, user: String) throws(PayloadError) -> PushPayload {
        let tracking = PushTrackingID(messageID: Self.messageID(ofNotification: notificationID), recipient: user)
        let body = try Self.fitted(text, limit: maximumBytes) { notificationBytes($0, tracking: tracking).count }
        let data = Data(notificationBytes(body, tracking: tracking))
        return PushPayload(
            data: data, alert: body.body, title: body.title, message: body.body, isShortened: body.body != text.body)
    }

    /// The data-message form for `user`, within every rule in `rules`.
    public func dataMessage(_ text: NotificationText, user: String, rules: [any DataMessageSizeRule]) throws(PayloadError)
        -> DataMessagePayload
    {
        let tracking = PushTrackingID(messageID: Self.messageID(ofNotification: notificationID), recipient: user)
        func map(_ text: NotificationText) -> DataMessagePayload {
            var data = ["body": text.body, "push_notification": String(decoding: JSONWriter.data(details(tracking)), as: UTF8.self)]
            if let title = text.title { data["title"] = title }
            return DataMessagePayload(data: data)
        }
        let fitted = try Self.fitted(text, limit: 0) { candidate in
            let payload = map(candidate)
            // Over by the worst overrun of any rule (0 when it fits everywhere).
            var over = payload.dataByteCount - DataMessagePayload.maximumDataBytes
            for rule in rules { over = max(over, rule.bytes(of: payload) - rule.maximumBytes) }
            return over
        }
        return map(fitted)
    }

    /// `text` with its body cut (on a character boundary, with "…") until `size` is at most `limit`.
    static func fitted(_ text: NotificationText, limit: Int, size: (NotificationText) -> Int) throws(PayloadError)
        -> NotificationText
    {
        let whole = size(text)
        guard whole > limit else { return text }
        var empty = text
        empty.body = PayloadBuilder.ellipsis
        guard size(empty) <= limit else { throw .tooLarge(minimumBytes: size(empty), limit: limit) }
        // The longest prefix that fits: a binary search over the body's characters.
        let characters = Array(text.body)
        var (low, high) = (0, characters.count - 1)
        while low < high {
            let middle = (low + high + 1) / 2
            var candidate = text
            candidate.body = String(characters[..<middle]) + PayloadBuilder.ellipsis
            if size(candidate) <= limit { low = middle } else { high = middle - 1 }
        }
        var result = text
        result.body = String(characters[..<low]) + PayloadBuilder.ellipsis
        return result
    }

    private func notificationBytes(_ text: NotificationText, tracking: PushTrackingID) -> [UInt8] {
        var aps: [String: JSONValue] = [:]
        var alert: [String: JSONValue] = ["body": .string(text.body)]
        if let title = text.title { alert["title"] = .string(title) }
        aps["alert"] = .object(alert)
        if let sound = content.sound ?? defaultSound { aps["sound"] = .string(sound) }
        if let badge = content.badge { aps["badge"] = .int(Int64(badge)) }
        if let category = content.category { aps["category"] = .string(category) }
        if let level = content.interruptionLevel { aps["interruption-level"] = .string(level.rawValue) }
        if mutableContent { aps["mutable-content"] = .int(1) }
        return Array(JSONWriter.data(.object(["aps": .object(aps), "push_notification": details(tracking)])))
    }

    /// The `push_notification` object: what the app's code on the device reads.
    private func details(_ tracking: PushTrackingID) -> JSONValue {
        var object: [String: JSONValue] = [
            "id": .int(notificationID), "push_tracking_id": .string(tracking.description),
        ]
        if let link = content.deepLink { object["deep_link"] = .string(link) }
        if let data = content.data { object["data"] = .object(data) }
        return .object(object)
    }
}
