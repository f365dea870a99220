import Foundation

/// A Sendbird `group_channel:message_send` webhook event: the message, its channel and sender,
/// and every member with their unread counts. The input of the recipient policy and the payload
/// builder.
///
/// Decoding is strict on what pushing needs (`category`, `app_id`, `channel.channel_url`,
/// `payload.message_id`, `type`, `sender.user_id` except for admin messages, and `members`) and
/// lenient elsewhere: unknown keys are ignored, missing optional fields get defaults, and numbers
/// or bools that arrive as strings (or bools as 0/1) are accepted.
public struct WebhookEvent: Sendable, Hashable {
    /// The only category PushRelay pushes.
    public static let offlineMessageCategory = "group_channel:message_send"
    /// Sendbird notifies at most this many users mentioned in one message.
    public static let mentionNotificationLimit = 10

    public var category: String
    public var appID: String
    /// Nil only for admin messages, which may come without a sender.
    public var sender: WebhookSender?
    /// Silent messages never push.
    public var silent: Bool
    /// The top-level `custom_type` (informational: the payload uses the message's and the
    /// channel's own custom types).
    public var customType: String
    public var mentionType: MentionType
    public var mentionedUsers: [WebhookUser]
    public var members: [WebhookMember]
    public var type: MessageType
    public var message: WebhookMessage
    public var channel: WebhookChannel
    /// `iOS`, `Android`, `JavaScript`, `.NET`, `API`, … (informational).
    public var sdk: String
    /// Read from the top level or from `payload` (Sendbird has used both).
    public var deliveryOption: PushDeliveryOption
    /// Read from the top level or from `payload`.
    public var templateOverride: PushTemplateOverride?

    public init(
        category: String = WebhookEvent.offlineMessageCategory,
        appID: String,
        sender: WebhookSender?,
        silent: Bool = false,
        customType: String = "",
        mentionType: MentionType = .users,
        mentionedUsers: [WebhookUser] = [],
        members: [WebhookMember],
        type: MessageType,
        message: WebhookMessage,
        channel: WebhookChannel,
        sdk: String = "",
        deliveryOption: PushDeliveryOption = .default,
        templateOverride: PushTemplateOverride? = nil
    ) {
        self.category = category
        self.appID = appID
        self.sender = sender
        self.silent = silent
        self.customType = customType
        self.mentionType = mentionType
        self.mentionedUsers = mentionedUsers
        self.members = members
        self.type = type
        self.message = message
        self.channel = channel
        self.sdk = sdk
        self.deliveryOption = deliveryOption
        self.templateOverride = templateOverride
    }

    public var isOfflineMessageEvent: Bool { category == WebhookEvent.offlineMessageCategory }

    /// Decodes a webhook body that must be a `group_channel:message_send` event.
    public init(json data: Data) throws(WebhookEventError) {
        let envelope = try WebhookEnvelope(json: data)
        self = try envelope.offlineMessageEvent()
    }

    /// Whether a message notifies `userID` as mentioned: a channel mention, or a users mention
    /// listing them among the first `mentionNotificationLimit` mentioned users.
    public func mentions(userID: String) -> Bool {
        switch mentionType {
        case .channel:
            return true
        case .users, .unknown:
            return mentionedUsers.prefix(WebhookEvent.mentionNotificationLimit).contains { $0.userID.sameBytes(as: userID) }
        }
    }

    init(_ reader: JSONObjectReader) throws(WebhookEventError) {
        let category = try reader.requiredString("category")
        let appID = try reader.requiredID("app_id")
        let typeRaw = try reader.requiredString("type")
        guard let type = MessageType(rawValue: typeRaw.uppercased()) else {
            throw .invalidField(reader.fieldPath("type"), expected: "one of MESG, FILE, ADMM")
        }
        let channel = try WebhookChannel(try reader.requiredObject("channel"))
        let payload = try reader.requiredObject("payload")
        let message = try WebhookMessage(payload)

        let sender: WebhookSender?
        if type == .admm, (reader.object("sender")?.optionalString("user_id") ?? "").isEmpty {
            sender = nil
        } else {
            sender = try WebhookSender(try reader.requiredObject("sender"))
        }

        guard let membersValue = reader.value("members") else { throw .membersMissing }
        guard let membersArray = membersValue.arrayValue else {
            throw .invalidField("members", expected: "an array of member objects")
        }
        var members: [WebhookMember] = []
        members.reserveCapacity(membersArray.count)
        for (index, value) in membersArray.enumerated() {
            let path = "members[\(index)]"
            guard let object = value.objectValue else { throw .invalidField(path, expected: "an object") }
            members.append(try WebhookMember(JSONObjectReader(object, path: path)))
        }

        var mentioned = (reader.array("mentioned_users") ?? []).compactMap(WebhookUser.init)
        if mentioned.isEmpty {
            mentioned = (reader.array("mentioned_user_ids") ?? []).compactMap(WebhookUser.init)
        }

        let optionRaw =
            reader.optionalString("push_notification_delivery_option")
            ?? payload.optionalString("push_notification_delivery_option")

        self.init(
            category: category,
            appID: appID,
            sender: sender,
            silent: reader.bool("silent"),
            customType: reader.string("custom_type"),
            mentionType: MentionType(rawValue: reader.string("mention_type")),
            mentionedUsers: mentioned,
            members: members,
            type: type,
            message: message,
            channel: channel,
            sdk: reader.string("sdk"),
            deliveryOption: optionRaw.map(PushDeliveryOption.init(rawValue:)) ?? .default,
            templateOverride: WebhookEvent.templateOverride(
                reader.value("push_message_template")
                    ?? payload.value("push_message_template"))
        )
    }

    /// `"default"`/`"alternative"`, or `{title, body}`; anything else is ignored (the recipient's
    /// own template applies).
    private static func templateOverride(_ value: JSONValue?) -> PushTemplateOverride? {
        switch value {
        case .string(let name)?:
            return PushTemplateName(rawValue: name.lowercased()).map(PushTemplateOverride.named)
        case .object(let object)?:
            let reader = JSONObjectReader(object)
            let title = reader.optionalString("title")?.cut(toBytes: TextLimits.templateBytes)
            let body = reader.optionalString("body")?.cut(toBytes: TextLimits.templateBytes)
            if title == nil && body == nil { return nil }
            return .custom(title: title, body: body)
        default:
            return nil
        }
    }
}
