/// One channel member as the webhook reports it (an entry of `members`, present only when the
/// app's webhook has "Include member information" on).
///
/// `pushTriggerOption` and `doNotDisturb` are what the chat server believes; PushRelay decides
/// with the preferences stored through its own REST API and keeps these only for the record.
public struct WebhookMember: Sendable, Hashable {
    public var userID: String
    public var nickname: String
    public var profileURL: String
    public var isActive: Bool
    public var isOnline: Bool
    /// Sendbird's `is_hidden` (0 shown, 1 hidden until a new message, 2 hidden for good); a bool
    /// arrives as 0/1.
    public var hiddenState: Int
    public var state: MemberState
    public var isBlockingSender: Bool
    public var isBlockedBySender: Bool
    public var unreadMessageCount: Int
    /// The user's unread count over all channels: the badge and `unread_message_count`.
    public var totalUnreadMessageCount: Int
    public var channelUnreadMessageCount: Int
    public var channelMentionCount: Int
    public var pushEnabled: Bool?
    /// Lenient: a bool (seen in a real capture) reads as `default` (true) or `off` (false);
    /// unknown strings as `default`, as Sendbird's SDK does.
    public var pushTriggerOption: ChannelPushTriggerOption?
    public var doNotDisturb: Bool
    public var metadata: [String: String]

    public init(
        userID: String,
        nickname: String = "",
        profileURL: String = "",
        isActive: Bool = true,
        isOnline: Bool = false,
        hiddenState: Int = 0,
        state: MemberState = .joined,
        isBlockingSender: Bool = false,
        isBlockedBySender: Bool = false,
        unreadMessageCount: Int = 0,
        totalUnreadMessageCount: Int = 0,
        channelUnreadMessageCount: Int = 0,
        channelMentionCount: Int = 0,
        pushEnabled: Bool? = nil,
        pushTriggerOption: ChannelPushTriggerOption? = nil,
        doNotDisturb: Bool = false,
        metadata: [String: String] = [:]
    ) {
        self.userID = userID
        self.nickname = nickname
        self.profileURL = profileURL
        self.isActive = isActive
        self.isOnline = isOnline
        self.hiddenState = hiddenState
        self.state = state
        self.isBlockingSender = isBlockingSender
        self.isBlockedBySender = isBlockedBySender
        self.unreadMessageCount = unreadMessageCount
        self.totalUnreadMessageCount = totalUnreadMessageCount
        self.channelUnreadMessageCount = channelUnreadMessageCount
        self.channelMentionCount = channelMentionCount
        self.pushEnabled = pushEnabled
        self.pushTriggerOption = pushTriggerOption
        self.doNotDisturb = doNotDisturb
        self.metadata = metadata
    }

    init(_ reader: JSONObjectReader) throws(WebhookEventError) {
        let unread = reader.int("unread_message_count")
        let hidden: Int
        switch reader.value("is_hidden") {
        case .bool(let flag)?: hidden = flag ? 1 : 0
        default: hidden = reader.int("is_hidden")
        }
        let trigger: ChannelPushTriggerOption?
        switch reader.value("push_trigger_option") {
        case .bool(let enabled)?: trigger = enabled ? .default : .off
        case .string(let raw)?: trigger = ChannelPushTriggerOption(rawValue: raw.lowercased()) ?? .default
        default: trigger = nil
        }
        self.init(
            userID: try reader.requiredID("user_id"),
            nickname: reader.string("nickname").cut(toBytes: TextLimits.nameBytes),
            profileURL: reader.string("profile_url"),
            isActive: reader.bool("is_active", default: true),
            isOnline: reader.bool("is_online"),
            hiddenState: hidden,
            state: reader.optionalString("state").map(MemberState.init(rawValue:)) ?? .joined,
            isBlockingSender: reader.bool("is_blocking_sender"),
            isBlockedBySender: reader.bool("is_blocked_by_sender"),
            unreadMessageCount: unread,
            // Older events carry only `unread_message_count`, which then is the total.
            totalUnreadMessageCount: reader.int("total_unread_message_count", default: unread),
            channelUnreadMessageCount: reader.int("channel_unread_message_count"),
            channelMentionCount: reader.int("channel_mention_count"),
            pushEnabled: reader.optionalBool("push_enabled"),
            pushTriggerOption: trigger,
            doNotDisturb: reader.bool("do_not_disturb"),
            metadata: reader.stringMap("metadata")
        )
    }
}
