import Foundation
import PushCore

/// The message a subscription gets: a declarative Web Push message (WebKit's Declarative Web
/// Push, in the W3C Push API draft) that a browser shows without running a service worker, and
/// that a classic service worker reads as JSON. It carries the `sendbird` dictionary the other
/// providers carry.
///
/// ```json
/// {"web_push": 8030,
///  "notification": {"title": "Jane", "body": "Jane: hello", "navigate": "https://chat.example.com/c/ch1",
///   "tag": "ch1", "silent": false},
///  "app_badge": 5, "sendbird": {…}}
/// ```
///
/// Built from the notification payload the planner made for the member (`aps.alert`, `aps.badge`,
/// `aps.sound`, `sendbird`), so templates, translations and badges are the same as on iOS.
struct DeclarativeMessage {
    /// `{channel_url}` in it is replaced by the channel's URL, percent-encoded.
    var navigateTemplate: String

    struct Rendered {
        var json: [UInt8]
        /// The channel's URL ("" when the payload names none): the push's `Topic`.
        var channel: String
    }

    /// The message's JSON within `maximumBytes`: whole; else with a `sendbird` dictionary cut to
    /// the ids a client needs to fetch the message; nil when even that does not fit.
    func render(notificationPayload: [UInt8], maximumBytes: Int) -> Rendered? {
        guard case .object(let payload)? = try? JSONValue.parse(Data(notificationPayload)) else { return nil }
        let aps = payload["aps"]?.objectValue ?? [:]
        if payload["sendbird"] == nil, let details = payload["push_notification"]?.objectValue {
            return render(notification: details, aps: aps, maximumBytes: maximumBytes)
        }
        let sendbird = payload["sendbird"]?.objectValue ?? [:]
        var message: [String: JSONValue] = ["web_push": .int(8030), "notification": .object(notification(aps: aps, sendbird: sendbird))]
        if case .int(let badge)? = aps["badge"], badge >= 0 { message["app_badge"] = .int(badge) }
        if !sendbird.isEmpty { message["sendbird"] = .object(sendbird) }
        let channel = sendbird["channel"]?.objectValue?["channel_url"]?.lenientString ?? ""
        let whole = Array(JSONWriter.data(.object(message)))
        if whole.count <= maximumBytes { return Rendered(json: whole, channel: channel) }
        message["sendbird"] = .object(Self.essentials(of: sendbird))
        let cut = Array(JSONWriter.data(.object(message)))
        return cut.count <= maximumBytes ? Rendered(json: cut, channel: channel) : nil
    }

    /// A notification of the app's server (`NotificationPayload`): its title and body, its deep
    /// link to open when it is an http(s) URL (else the app's page), and its details (id, tracking
    /// id, the app's data) as the notification's `data`, for a service worker.
    private func render(notification details: [String: JSONValue], aps: [String: JSONValue], maximumBytes: Int) -> Rendered? {
        let alert = aps["alert"]?.objectValue ?? [:]
        let link = details["deep_link"]?.lenientString.flatMap { $0.hasPrefix("https://") || $0.hasPrefix("http://") ? $0 : nil }
        let notification: [String: JSONValue] = [
            "title": .string(alert["title"]?.lenientString ?? ""), "body": .string(alert["body"]?.lenientString ?? ""),
            "navigate": .string(link ?? navigate(channel: "")), "silent": .bool(aps["sound"] == nil), "data": .object(details),
        ]
        var message: [String: JSONValue] = ["web_push": .int(8030), "notification": .object(notification)]
        if case .int(let badge)? = aps["badge"], badge >= 0 { message["app_badge"] = .int(badge) }
        let json = Array(JSONWriter.data(.object(message)))
        return json.count <= maximumBytes ? Rendered(json: json, channel: "") : nil
    }

    private func notification(aps: [String: JSONValue], sendbird: [String: JSONValue]) -> [String: JSONValue] {
        let body = aps["alert"].flatMap(Self.alertText) ?? ""
        let channel = sendbird["channel"]?.objectValue?["channel_url"]?.lenientString ?? ""
        let title =
            sendbird["push_title"]?.lenientString.flatMap { $0.isEmpty ? nil : $0 }
            ?? sendbird["sender"]?.objectValue?["name"]?.lenientString.flatMap { $0.isEmpty ? nil : $0 }
            ?? sendbird["channel"]?.objectValue?["name"]?.lenientString.flatMap { $0.isEmpty ? nil : $0 }
            ?? "New message"
        var notification: [String: JSONValue] = [
            "title": .string(title), "body": .string(body), "navigate": .string(navigate(channel: channel)),
            "silent": .bool(aps["sound"] == nil),
        ]
        // A newer notification for the channel replaces the one shown.
        if !channel.isEmpty { notification["tag"] = .string(channel) }
        if let language = Self.language(of: sendbird) { notification["lang"] = .string(language) }
        return notification
    }

    /// The language of the translation the member got: the one whose text `sendbird.message` is
    /// (a translation stands for the message there, cut with "…" when it did not fit); nil for
    /// the original text.
    static func language(of sendbird: [String: JSONValue]) -> String? {
        guard let message = sendbird["message"]?.lenientString, !message.isEmpty,
            let translations = sendbird["translations"]?.objectValue, !translations.isEmpty
        else { return nil }
        let cut = message.hasSuffix(PayloadBuilder.ellipsis) ? String(message.dropLast()) : nil
        for (language, value) in translations.sorted(by: { $0.key < $1.key }) {
            guard let text = value.lenientString, language.utf8.count <= 35,
                language.utf8.allSatisfy({
                    $0 == UInt8(ascii: "-") || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39)
                })
            else { continue }
            if text == message || (cut.map { !$0.isEmpty && text.hasPrefix($0) } ?? false) { return language }
        }
        return nil
    }

    func navigate(channel: String) -> String {
        let encoded = channel.addingPercentEncoding(withAllowedCharacters: Self.unreserved) ?? ""
        return navigateTemplate.replacingOccurrences(of: "{channel_url}", with: encoded)
    }

    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    private static func alertText(_ alert: JSONValue) -> String? {
        if let text = alert.lenientString { return text }
        return alert.objectValue?["body"]?.lenientString
    }

    /// What a client needs to find the message and acknowledge the push.
    static func essentials(of sendbird: [String: JSONValue]) -> [String: JSONValue] {
        var kept = sendbird.filter { ["type", "message_id", "created_at", "app_id", "push_tracking_id", "category"].contains($0.key) }
        if let channel = sendbird["channel"]?.objectValue?["channel_url"] { kept["channel"] = .object(["channel_url": channel]) }
        return kept
    }
}
