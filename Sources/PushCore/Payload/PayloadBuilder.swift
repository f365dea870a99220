import Foundation

/// Builds the APNs body Sendbird clients expect for one recipient:
///
/// ```json
/// {"aps": {"alert": "Jane: hello", "sound": "default", "badge": 5, "mutable-content": 1,
///          "thread-id": "<channel url>"},
///  "sendbird": {"category": "messaging:offline_notification", "type": "MESG", "message": "hello",
///   "data": "", "custom_type": "", "message_id": 4633387838, "created_at": 1669127194985,
///   "app_id": "…", "unread_message_count": 5,
///   "channel": {"channel_url": "…", "name": "", "custom_type": "", "channel_unread_message_count": 5},
///   "channel_type": "group_messaging",
///   "sender": {"id": "…", "name": "Jane", "profile_url": "", "require_auth_for_profile_image": false},
///   "recipient": {"id": "…", "name": "Bob", "push_template": "default"},
///   "files": [], "translations": {}, "push_title": null, "push_sound": "default",
///   "push_tracking_id": "4633387838-9b2c…",
///   "audience_type": "only", "mentioned_users": [], "notification_action": "create",
///   "sqs_ts": 1669127195189}}
/// ```
///
/// `push_tracking_id` (`PushTrackingID`) names this message's push to this recipient, for the
/// device's delivery acknowledgement. `aps.badge` is the recipient's total unread count and is left out when the app disables
/// badges; `mutable-content`/`content-available` appear only when the app enables them;
/// `thread-id` and the other presentation keys come from `AlertPresentation`.
/// `aps.alert` is always a string (what Sendbird clients read); a template title goes to
/// `sendbird.push_title`. `sender` is left out only for admin messages without a sender.
///
/// **Fitting.** When the body exceeds `options.maxPayloadBytes`, the message text is cut on a
/// character (grapheme) boundary and "…" appended, identically in `aps.alert` (rendered from the
/// template) and `sendbird.message`. The size of a candidate is computed, not built (see
/// `MessageSlots`), so the longest prefix that fits is found in one pass and the payload is built
/// once: O(limit) per recipient, whatever the template and message. Nothing else is dropped: if
/// even "…" alone does not fit, the result is `PayloadError.tooLarge`.
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
        try build(
            prepared: prepare(event, now: now), member: member, alert: alert,
            recipientTemplate: recipientTemplate, sound: sound)
    }

    /// The parts of every recipient's payload that depend only on the event, encoded once.
    public func prepare(_ event: WebhookEvent, now: Date) -> PreparedEvent {
        PreparedEvent(builder: self, event: event, nowMs: UnixTime.milliseconds(now))
    }

    /// `alert` with its title and body cut into slots for this builder's limit: the same for
    /// every recipient of one event given the same template, so the planner makes it once.
    public func prepare(_ alert: AlertTemplate) -> PreparedAlert {
        let (title, body) = alert.slots(budget: options.maxPayloadBytes)
        return PreparedAlert(template: alert, title: title, body: body)
    }

    /// The payload for `member` of the event `prepared` was made from (by this builder).
    /// `translation`: the message's text in the reader's language, shown instead of the original.
    /// `presentation`: false leaves out `AlertPresentation`'s keys (a data message, which has no
    /// `aps`, must not spend its budget on them).
    public func build(
        prepared: PreparedEvent,
        member: WebhookMember,
        alert: AlertTemplate,
        recipientTemplate: PushTemplateName,
        sound: String,
        translation: String? = nil,
        presentation: Bool = true
    ) throws(PayloadError) -> PushPayload {
        try build(
            prepared: prepared, member: member, alert: prepare(alert), recipientTemplate: recipientTemplate, sound: sound,
            translation: translation, presentation: presentation)
    }

    /// The payload for `member` of the event `prepared` was made from, with an alert this
    /// builder prepared. A `translation` stands for the message text everywhere it goes (the
    /// alert's `{message}` and `sendbird.message`), cut to fit as the original would be.
    public func build(
        prepared: PreparedEvent,
        member: WebhookMember,
        alert preparedAlert: PreparedAlert,
        recipientTemplate: PushTemplateName,
        sound: String,
        translation: String? = nil,
        presentation: Bool = true
    ) throws(PayloadError) -> PushPayload {
        try mold(
            prepared: prepared, member: member, alert: preparedAlert, recipientTemplate: recipientTemplate, sound: sound,
            translation: translation, presentation: presentation
        ).payload
    }

    /// `build`'s payload as a mold: with where the member's own values stand in it, so the next
    /// member of the same kind gets theirs by patching (`PayloadMold`).
    func mold(
        prepared: PreparedEvent,
        member: WebhookMember,
        alert preparedAlert: PreparedAlert,
        recipientTemplate: PushTemplateName,
        sound: String,
        translation: String? = nil,
        presentation: Bool = true
    ) throws(PayloadError) -> PayloadMold {
        let alert = preparedAlert.template
        let limit = options.maxPayloadBytes
        // What every recipient's payload carries alone already passes the limit: refuse before
        // copying it per recipient (a huge `data` field must not cost members × its size).
        guard prepared.byteCount <= limit else {
            throw .tooLarge(minimumBytes: prepared.byteCount, limit: limit)
        }
        let skeleton = Skeleton(
            builder: self, prepared: prepared, member: member, alert: alert,
            recipientTemplate: recipientTemplate, sound: sound, presentation: presentation ? prepared.presentation : nil)
        // Size = everything but the message + `copies` × the escaped message: the message stands
        // in `sendbird.message` and at each `{message}` of the body and title.
        let (title, body) = (preparedAlert.title, preparedAlert.body)
        let fixed = skeleton.byteCount + body.escapedByteCount + (title?.escapedByteCount ?? 0)
        let copies = 1 + body.messageCount + (title?.messageCount ?? 0)
        let fullText = translation ?? prepared.messageText
        if !body.isOverBudget, title?.isOverBudget != true,
            fixed + copies * JSONWriter.escapedByteCount(fullText) <= limit
        {
            return skeleton.payload(message: fullText, title: title, body: body, isShortened: false)
        }
        // Cut on a character boundary with "…" appended: the longest prefix that fits, found in
        // one pass over at most `limit` bytes of the text.
        let ellipsis = JSONWriter.escapedByteCount(PayloadBuilder.ellipsis)
        let smallest = fixed + copies * ellipsis
        guard !body.isOverBudget, title?.isOverBudget != true, smallest <= limit else {
            throw .tooLarge(minimumBytes: max(smallest, limit + 1), limit: limit)
        }
        let room = (limit - fixed) / copies - ellipsis
        var used = 0
        var end = fullText.startIndex
        while end < fullText.endIndex {
            let next = fullText.index(after: end)
            let width = JSONWriter.escapedByteCount(fullText[end..<next])
            guard used + width <= room else { break }
            used += width
            end = next
        }
        return skeleton.payload(
            message: String(fullText[..<end]) + PayloadBuilder.ellipsis, title: title, body: body,
            isShortened: true)
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

/// An alert template and its slots at one builder's payload limit (`PayloadBuilder.prepare(_:)`).
public struct PreparedAlert: Sendable {
    public let template: AlertTemplate
    let title: MessageSlots?
    let body: MessageSlots
}

/// The bytes of a payload that are the same for every recipient of one event (see `Skeleton`
/// for where they go), kept as one array: the store writes it once per event (`SharedSpan`).
public struct PreparedEvent: Sendable {
    // Only what the recipients' parts need, not the whole event: this is copied per recipient.
    let messageID: Int64
    let messageText: String
    /// The `aps` keys beside the alert (`AlertPresentation`), rendered for this event.
    let presentation: PreparedPresentation
    /// The four parts below, one after the other.
    public let sharedBytes: [UInt8]
    /// Where the last three parts start in `sharedBytes`.
    let channelUnreadStart: Int
    let messageStart: Int
    let recipientStart: Int

    /// `"app_id"` … `"category"`, then `,"channel":{"channel_unread_message_count":`.
    var beforeChannelUnread: ArraySlice<UInt8> { sharedBytes[..<channelUnreadStart] }
    /// The rest of `channel`, then `"channel_type"` … `"mentioned_users"`, then `,"message":`.
    var afterChannelUnread: ArraySlice<UInt8> { sharedBytes[channelUnreadStart..<messageStart] }
    /// `"message_id"`, `"notification_action"`, then `,"push_sound":`.
    var afterMessage: ArraySlice<UInt8> { sharedBytes[messageStart..<recipientStart] }
    /// `"sender"` … `"type"`, then `,"unread_message_count":`.
    var afterRecipient: ArraySlice<UInt8> { sharedBytes[recipientStart...] }

    /// Bytes every recipient's payload carries from here.
    var byteCount: Int { sharedBytes.count }

    init(builder: PayloadBuilder, event: WebhookEvent, nowMs: Int64) {
        let options = builder.options
        messageID = event.message.messageID
        messageText = event.message.message
        presentation = PreparedPresentation(options.presentation, event: event)
        let files: [JSONValue] =
            event.type != .file
            ? []
            : event.message.files.map { file in
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
        var out: [UInt8] = []
        JSONWriter.writeMember("app_id", .string(event.appID), first: true, into: &out)
        JSONWriter.writeMember("audience_type", .string("only"), into: &out)
        JSONWriter.writeMember("category", .string(PayloadBuilder.category), into: &out)
        out.append(contentsOf: #","channel":{"channel_unread_message_count":"#.utf8)
        channelUnreadStart = out.count

        JSONWriter.writeMember("channel_url", .string(event.channel.channelURL), into: &out)
        JSONWriter.writeMember("custom_type", .string(event.channel.customType), into: &out)
        JSONWriter.writeMember("name", .string(event.channel.name), into: &out)
        out.append(UInt8(ascii: "}"))
        JSONWriter.writeMember("channel_type", .string(event.channel.pushChannelType), into: &out)
        JSONWriter.writeMember("created_at", .int(event.message.createdAt), into: &out)
        JSONWriter.writeMember("custom_type", .string(event.message.customType), into: &out)
        JSONWriter.writeMember("data", .string(event.message.data), into: &out)
        JSONWriter.writeMember("files", .array(files), into: &out)
        JSONWriter.writeMember("mentioned_users", .array(mentioned), into: &out)
        out.append(contentsOf: #","message":"#.utf8)
        messageStart = out.count

        JSONWriter.writeMember("message_id", .int(event.message.messageID), into: &out)
        JSONWriter.writeMember("notification_action", .string("create"), into: &out)
        out.append(contentsOf: #","push_sound":"#.utf8)
        recipientStart = out.count

        if let sender = event.sender {
            JSONWriter.writeMember(
                "sender",
                .object([
                    "id": .string(sender.userID),
                    "name": .string(sender.nickname),
                    "profile_url": .string(sender.profileURL),
                    "require_auth_for_profile_image": .bool(sender.requireAuthForProfileImage ?? options.requireAuthForFiles),
                ]), into: &out)
        }
        JSONWriter.writeMember("sqs_ts", .int(nowMs), into: &out)
        JSONWriter.writeMember("translations", .object(event.message.translations.mapValues(JSONValue.string)), into: &out)
        JSONWriter.writeMember("type", .string(event.type.rawValue), into: &out)
        out.append(contentsOf: #","unread_message_count":"#.utf8)
        sharedBytes = out
    }
}

/// Everything of one recipient's payload except the message text, which fitting varies, as
/// ready-made bytes: the payload is `{"aps":{"alert":` ALERT `head` MESSAGE `middle` TITLE `tail`.
///
/// The keys are written in sorted order by hand, so the bytes are exactly what `JSONWriter` gives
/// for the same value (tests compare the two), without building and sorting dictionaries for
/// every recipient and every fitting step; what is the same for every recipient comes ready
/// from `PreparedEvent`.
private struct Skeleton {
    let alert: AlertTemplate
    /// From after `aps.alert` to `"message":`.
    let head: [UInt8]
    /// Where in `head` the `sendbird` object opens.
    let sendbirdOffset: Int
    /// From after `sendbird.message` to `"push_title":`.
    let middle: [UInt8]
    /// From after `sendbird.push_title` to the end.
    let tail: [UInt8]
    /// Where the event's four shared parts (`PreparedEvent`) stand: the first two in `head`, the
    /// third at the start of `middle`, the last in `tail`; and where each part ends in
    /// `sharedBytes`.
    private let headPartsAt: (Int, Int)
    private let tailPartAt: Int
    private let sharedEnds: (Int, Int, Int, Int)
    /// Where the member's own values stand: the badge and channel unread count in `head`, the
    /// others in `tail`.
    private let headSpots: PayloadMold.Spots
    private let tailSpots: PayloadMold.Spots
    private let messageID: Int64

    init(
        builder: PayloadBuilder, prepared: PreparedEvent, member: WebhookMember, alert: AlertTemplate,
        recipientTemplate: PushTemplateName, sound: String, presentation: PreparedPresentation?
    ) {
        let options = builder.options
        self.alert = alert

        var head: [UInt8] = []
        head.reserveCapacity(256 + prepared.afterChannelUnread.count)
        var headSpots = PayloadMold.Spots()
        messageID = prepared.messageID
        func write(_ field: PayloadMold.Field, into bytes: inout [UInt8]) -> Range<Int> {
            let at = bytes.count
            field.write(member, messageID: prepared.messageID, into: &bytes)
            return at..<bytes.count
        }
        if options.badge {
            head.append(contentsOf: #","badge":"#.utf8)
            headSpots.badge = write(.totalUnread, into: &head)
        }
        if options.contentAvailable { JSONWriter.writeMember("content-available", .int(1), into: &head) }
        if let presentation {
            head.append(contentsOf: presentation.afterContentAvailable)
            head.append(contentsOf: presentation.interruptionLevel(for: member.userID))
        }
        if options.mutableContent { JSONWriter.writeMember("mutable-content", .int(1), into: &head) }
        if let presentation { head.append(contentsOf: presentation.afterMutableContent) }
        JSONWriter.writeMember("sound", .string(sound), into: &head)
        if let presentation { head.append(contentsOf: presentation.afterSound) }
        head.append(contentsOf: #"},"sendbird":"#.utf8)
        sendbirdOffset = head.count
        head.append(UInt8(ascii: "{"))
        let beforeChannelUnreadAt = head.count
        head.append(contentsOf: prepared.beforeChannelUnread)
        headSpots.channelUnread = write(.channelUnread, into: &head)
        let afterChannelUnreadAt = head.count
        head.append(contentsOf: prepared.afterChannelUnread)
        self.head = head
        self.headSpots = headSpots
        headPartsAt = (beforeChannelUnreadAt, afterChannelUnreadAt)
        sharedEnds = (prepared.channelUnreadStart, prepared.messageStart, prepared.recipientStart, prepared.sharedBytes.count)

        var middle = Array(prepared.afterMessage)
        JSONWriter.writeString(sound, into: &middle)
        middle.append(contentsOf: #","push_title":"#.utf8)
        self.middle = middle

        var tail: [UInt8] = []
        tail.reserveCapacity(160 + prepared.afterRecipient.count)
        // Written by hand, keys in sorted order as `JSONWriter` would (tests compare the two):
        // building a dictionary per recipient to sort its keys was a tenth of planning.
        var tailSpots = PayloadMold.Spots()
        tail.append(contentsOf: #","push_tracking_id":""#.utf8)
        tailSpots.trackingID = write(.trackingID, into: &tail)
        tail.append(contentsOf: #"","recipient":{"id":"#.utf8)
        tailSpots.userID = write(.userID, into: &tail)
        tail.append(contentsOf: #","name":"#.utf8)
        tailSpots.nickname = write(.nickname, into: &tail)
        tail.append(contentsOf: #","push_template":"#.utf8)
        JSONWriter.writeString(recipientTemplate.rawValue, into: &tail)
        tail.append(UInt8(ascii: "}"))
        tailPartAt = tail.count
        tail.append(contentsOf: prepared.afterRecipient)
        tailSpots.unread = write(.totalUnread, into: &tail)
        tail.append(contentsOf: "}}".utf8)
        self.tail = tail
        self.tailSpots = tailSpots
    }

    private static let start = Array(#"{"aps":{"alert":"#.utf8)
    private static let null = Array("null".utf8)

    /// The payload's bytes but for the texts of the alert, the message and the title: the
    /// quotes of the three strings, or `null` for a missing title.
    var byteCount: Int {
        Self.start.count + head.count + middle.count + tail.count + 2 + 2 + (alert.title == nil ? Self.null.count : 2)
    }

    /// The payload with `message`, the title and body filled with it, as a mold.
    func payload(message: String, title: MessageSlots?, body: MessageSlots, isShortened: Bool) -> PayloadMold {
        let renderedBody = body.filled(with: message)
        let renderedTitle = title?.filled(with: message)
        var out: [UInt8] = []
        out.reserveCapacity(
            Self.start.count + head.count + middle.count + tail.count
                + renderedBody.utf8.count + message.utf8.count + (renderedTitle?.utf8.count ?? 4) + 16)
        out.append(contentsOf: Self.start)
        JSONWriter.writeString(renderedBody, into: &out)
        let sendbirdStart = out.count + sendbirdOffset
        let headStart = out.count
        out.append(contentsOf: head)
        JSONWriter.writeString(message, into: &out)
        let middleStart = out.count
        out.append(contentsOf: middle)
        if let renderedTitle { JSONWriter.writeString(renderedTitle, into: &out) } else { out.append(contentsOf: Self.null) }
        let tailStart = out.count
        out.append(contentsOf: tail)
        let ends = sharedEnds
        let spans = [
            SharedSpan(position: headStart + headPartsAt.0, offset: 0, length: ends.0),
            SharedSpan(position: headStart + headPartsAt.1, offset: ends.0, length: ends.1 - ends.0),
            SharedSpan(position: middleStart, offset: ends.1, length: ends.2 - ends.1),
            SharedSpan(position: tailStart + tailPartAt, offset: ends.2, length: ends.3 - ends.2),
        ]
        // The root object's closing brace is the last byte; `sendbird` ends just before it.
        let payload = PushPayload(
            data: Data(out), alert: renderedBody, title: renderedTitle, message: message,
            isShortened: isShortened, sendbirdRange: sendbirdStart..<(out.count - 1), sharedSpans: spans)
        let spots = headSpots.moved(by: headStart).merged(withTail: tailSpots.moved(by: tailStart))
        return PayloadMold(payload: payload, bytes: out, spots: spots, messageID: messageID)
    }
}
