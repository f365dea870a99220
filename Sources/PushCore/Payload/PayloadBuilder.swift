import Foundation

/// Builds the APNs body Sendbird clients expect for one recipient:
///
/// ```json
/// {"aps": {"alert": "Jane: hello", "sound": "default", "badge": 5, "mutable-content": 1},
///  "sendbird": {"category": "messaging:offline_notification", "type": "MESG", "message": "hello",
///   "data": "", "custom_type": "", "message_id": 4633387838, "created_at": 1669127194985,
///   "app_id": "…", "unread_message_count": 5,
///   "channel": {"channel_url": "…", "name": "", "custom_type": "", "channel_unread_message_count": 5},
///   "channel_type": "group_messaging",
///   "sender": {"id": "…", "name": "Jane", "profile_url": "", "require_auth_for_profile_image": false},
///   "recipient": {"id": "…", "name": "Bob", "push_template": "default"},
///   "files": [], "translations": {}, "push_title": null, "push_sound": "default",
///   "audience_type": "only", "mentioned_users": [], "notification_action": "create",
///   "sqs_ts": 1669127195189}}
/// ```
///
/// `aps.badge` is the recipient's total unread count and is left out when the app disables
/// badges; `mutable-content`/`content-available` appear only when the app enables them.
/// `aps.alert` is always a string (what Sendbird clients read); a template title goes to
/// `sendbird.push_title`. `sender` is left out only for admin messages without a sender.
///
/// **Fitting.** When the body exceeds `options.maxPayloadBytes`, the message text is cut on a
/// character (grapheme) boundary and "…" appended, identically in `aps.alert` (re-rendered from
/// the template) and `sendbird.message`; the longest prefix that fits is found by binary search.
/// Nothing else is dropped: if even "…" alone does not fit, the result is `PayloadError.tooLarge`.
public struct PayloadBuilder: Sendable {
    public static let category = "messaging:offline_notification"
    public static let ellipsis = "…"

    public let options: AppPushOptions

    public init(options: AppPushOptions = .defaults) {
        self.options = options
    }

    /// The payload for `member`. `sound` comes from `PayloadBuilder.sound(...)`; `now` becomes
    /// `sqs_ts`.
    public func build(
        event: WebhookEvent,
        member: WebhookMember,
        alert: AlertTemplate,
        recipientTemplate: PushTemplateName,
        sound: String,
        now: Date
    ) throws(PayloadError) -> PushPayload {
        let skeleton = Skeleton(builder: self, event: event, member: member, alert: alert,
                                recipientTemplate: recipientTemplate, sound: sound, nowMs: UnixTime.milliseconds(now))
        let limit = options.maxPayloadBytes
        let fullText = event.message.message
        let full = skeleton.payload(message: fullText, isShortened: false)
        if full.byteCount <= limit { return full }

        // Invariant: prefixes of `low` characters fit, of `high` do not (`high` may be the whole
        // text). Bytes grow with the prefix length, so the search is sound.
        let characters = Array(fullText)
        func shortened(_ count: Int) -> PushPayload {
            skeleton.payload(message: String(characters[0..<count]) + PayloadBuilder.ellipsis, isShortened: true)
        }
        let smallest = shortened(0)
        guard smallest.byteCount <= limit else {
            throw .tooLarge(minimumBytes: smallest.byteCount, limit: limit)
        }
        var best = smallest
        var low = 0
        // Every character costs at least one byte of `sendbird.message`, so no prefix longer
        // than the limit can fit.
        var high = min(characters.count, limit + 1)
        while high - low > 1 {
            let middle = low + (high - low) / 2
            let candidate = shortened(middle)
            if candidate.byteCount <= limit {
                low = middle
                best = candidate
            } else {
                high = middle
            }
        }
        return best
    }

    /// The sound: the channel's, else the user's, else the app default, else `"default"`. A user
    /// sound of `"default"` (the reset value) or empty counts as not chosen, so an app default
    /// can apply.
    public static func sound(
        channel: ChannelPushPreference,
        user: UserPushPreferences,
        options: AppPushOptions
    ) -> String {
        if let channelSound = channel.pushSound, !channelSound.isEmpty { return channelSound }
        if !user.pushSound.isEmpty, user.pushSound != "default" { return user.pushSound }
        if let appSound = options.defaultSound, !appSound.isEmpty { return appSound }
        return "default"
    }
}

/// Everything of one recipient's payload except the message text, which fitting varies.
private struct Skeleton {
    let alert: AlertTemplate
    let aps: [String: JSONValue]
    let sendbird: [String: JSONValue]

    init(builder: PayloadBuilder, event: WebhookEvent, member: WebhookMember, alert: AlertTemplate,
         recipientTemplate: PushTemplateName, sound: String, nowMs: Int64) {
        let options = builder.options
        self.alert = alert

        var aps: [String: JSONValue] = ["sound": .string(sound)]
        if options.badge { aps["badge"] = .int(Int64(member.totalUnreadMessageCount)) }
        if options.mutableContent { aps["mutable-content"] = .int(1) }
        if options.contentAvailable { aps["content-available"] = .int(1) }
        self.aps = aps

        let files: [JSONValue] = event.type != .file ? [] : event.message.files.map { file in
            .object([
                "type": .string(file.contentType),
                "url": .string(file.url),
                "name": .string(file.name),
                "size": .int(file.size),
                "require_auth": .bool(file.requireAuth ?? options.requireAuthForFiles),
            ])
        }
        let mentioned: [JSONValue] = event.mentionedUsers.map { user in
            .object([
                "user_id": .string(user.userID),
                "nickname": .string(user.nickname),
                "profile_url": .string(user.profileURL),
                "require_auth_for_profile_image": .bool(user.requireAuthForProfileImage),
            ])
        }
        var sendbird: [String: JSONValue] = [
            "category": .string(PayloadBuilder.category),
            "type": .string(event.type.rawValue),
            "data": .string(event.message.data),
            "custom_type": .string(event.message.customType),
            "message_id": .int(event.message.messageID),
            "created_at": .int(event.message.createdAt),
            "app_id": .string(event.appID),
            "unread_message_count": .int(Int64(member.totalUnreadMessageCount)),
            "channel": .object([
                "channel_url": .string(event.channel.channelURL),
                "name": .string(event.channel.name),
                "custom_type": .string(event.channel.customType),
                "channel_unread_message_count": .int(Int64(member.channelUnreadMessageCount)),
            ]),
            "channel_type": .string(event.channel.pushChannelType),
            "recipient": .object([
                "id": .string(member.userID),
                "name": .string(member.nickname),
                "push_template": .string(recipientTemplate.rawValue),
            ]),
            "files": .array(files),
            "translations": .object(event.message.translations.mapValues(JSONValue.string)),
            "push_sound": .string(sound),
            "audience_type": .string("only"),
            "mentioned_users": .array(mentioned),
            "notification_action": .string("create"),
            "sqs_ts": .int(nowMs),
        ]
        if let sender = event.sender {
            sendbird["sender"] = .object([
                "id": .string(sender.userID),
                "name": .string(sender.nickname),
                "profile_url": .string(sender.profileURL),
                "require_auth_for_profile_image": .bool(sender.requireAuthForProfileImage ?? options.requireAuthForFiles),
            ])
        }
        self.sendbird = sendbird
    }

    func payload(message: String, isShortened: Bool) -> PushPayload {
        let rendered = alert.render(message: message)
        var aps = self.aps
        aps["alert"] = .string(rendered.body)
        var sendbird = self.sendbird
        sendbird["message"] = .string(message)
        sendbird["push_title"] = rendered.title.map(JSONValue.string) ?? .null
        let data = JSONWriter.data(.object(["aps": .object(aps), "sendbird": .object(sendbird)]))
        return PushPayload(data: data, alert: rendered.body, title: rendered.title, message: message,
                           isShortened: isShortened)
    }
}
