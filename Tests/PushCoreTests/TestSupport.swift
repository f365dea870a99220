import Foundation
import Testing
@testable import PushCore

/// Sendbird's documented `group_channel:message_send` example (reference A5), verbatim.
let sendbirdExampleWebhook = #"""
    {"category": "group_channel:message_send",
     "sender": {"user_id": "Jeff", "nickname": "Oldies but goodies", "profile_url": "…", "metadata": {}},
     "silent": false, "sender_ip_addr": "xxx.xxx.xxx.xx", "custom_type": "", "mention_type": "users", "mentioned_users": [],
     "members": [{"user_id": "Jeff", "nickname": "…", "profile_url": "…", "is_active": true, "is_online": false, "is_hidden": 0,
       "state": "joined", "is_blocking_sender": false, "is_blocked_by_sender": false, "unread_message_count": 16,
       "total_unread_message_count": 16, "channel_unread_message_count": 5, "channel_mention_count": 0,
       "push_enabled": false, "push_trigger_option": "default", "do_not_disturb": false, "metadata": {}}],
     "type": "MESG",
     "payload": {"message_id": 238303376, "custom_type": "", "message": "Webhook simulation",
       "translations": {"en": "", "de": ""}, "created_at": 1540798555343, "data": ""},
     "channel": {"name": "…", "channel_url": "sendbird_group_channel_…", "custom_type": "business", "is_distinct": false,
       "is_public": false, "is_super": false, "is_ephemeral": false, "is_discoverable": false, "data": ""},
     "sdk": "API", "app_id": "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx"}
    """#

/// A parsed JSON object, editable in tests, for building webhook variants.
func jsonObject(_ text: String) throws -> [String: Any] {
    try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
}

func jsonData(_ object: [String: Any]) throws -> Data {
    try JSONSerialization.data(withJSONObject: object)
}

/// An instant from an ISO 8601 UTC string such as `2026-03-08T06:59:00Z`.
func instant(_ iso: String) -> Date {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    guard let date = formatter.date(from: iso) else { fatalError("bad test date \(iso)") }
    return date
}

func member(_ id: String, nickname: String = "", unread: Int = 3, channelUnread: Int = 1) -> WebhookMember {
    WebhookMember(
        userID: id, nickname: nickname.isEmpty ? "\(id) nick" : nickname,
        totalUnreadMessageCount: unread, channelUnreadMessageCount: channelUnread)
}

/// A plain MESG event from `alice` in a private channel, members given.
func makeEvent(
    type: MessageType = .mesg,
    text: String = "hello",
    sender: WebhookSender? = WebhookSender(userID: "alice", nickname: "Alice"),
    members: [WebhookMember] = [member("alice"), member("bob")],
    mentionType: MentionType = .users,
    mentioned: [String] = [],
    files: [WebhookFile] = [],
    channel: WebhookChannel = WebhookChannel(channelURL: "ch_1", name: "Team", customType: ""),
    silent: Bool = false,
    deliveryOption: PushDeliveryOption = .default,
    templateOverride: PushTemplateOverride? = nil,
    translations: [String: String] = [:]
) -> WebhookEvent {
    WebhookEvent(
        appID: "APP-1",
        sender: sender,
        silent: silent,
        mentionType: mentionType,
        mentionedUsers: mentioned.map { WebhookUser(userID: $0, nickname: "\($0) nick") },
        members: members,
        type: type,
        message: WebhookMessage(
            messageID: 4_633_387_838, customType: "greeting", message: text,
            translations: translations, createdAt: 1_669_127_194_985, data: "{\"k\":1}",
            files: files),
        channel: channel,
        sdk: "API",
        deliveryOption: deliveryOption,
        templateOverride: templateOverride
    )
}

/// Decodes APNs payload bytes back to a dictionary for field-by-field checks.
func decodePayload(_ data: Data) throws -> [String: Any] {
    try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
}
