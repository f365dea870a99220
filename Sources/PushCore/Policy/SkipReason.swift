/// Why a member gets no push for a message. `rawValue` is a stable snake_case code written to
/// the delivery log and used as a metrics label; never rename one. `unknown` keeps codes written
/// by a newer version readable.
public enum SkipReason: Sendable, Hashable, CustomStringConvertible {
    /// The member sent the message.
    case sender
    /// Supergroup channels never push.
    case supergroup
    /// The message was sent silently.
    case silent
    /// The sender chose `push_notification_delivery_option: suppress`.
    case suppressed
    /// An admin message, and the app does not push admin messages.
    case adminMessage
    /// The member is invited, not joined.
    case notJoined
    /// The member's account is deactivated.
    case inactive
    /// The member is connected and sees the message in the app.
    case online
    /// The member blocks the sender.
    case blockingSender
    /// The member blocks pushes from bots (all, or this one).
    case botBlocked
    /// The member turned pushes off for this channel.
    case channelOff
    /// The member wants only mentions here, and the message does not mention them.
    case notMentioned
    /// The member turned pushes off app-wide.
    case triggerOff
    /// The member's snooze is on.
    case snoozed
    /// The member's do-not-disturb window covers now.
    case doNotDisturb
    /// The member has no device token.
    case noToken
    /// The payload exceeds the APNs limit even with the message text cut to nothing.
    case payloadTooLarge
    case unknown(String)

    /// Every known reason, in the order the policy checks them (`payloadTooLarge` comes from the
    /// payload builder, after the policy).
    public static let allKnown: [SkipReason] = [
        .sender, .supergroup, .silent, .suppressed, .adminMessage, .notJoined, .inactive, .online,
        .blockingSender, .botBlocked, .channelOff, .notMentioned, .triggerOff, .snoozed,
        .doNotDisturb, .noToken, .payloadTooLarge,
    ]

    public init(rawValue: String) {
        self = SkipReason.allKnown.first { $0.rawValue == rawValue } ?? .unknown(rawValue)
    }

    public var rawValue: String {
        switch self {
        case .sender: "sender"
        case .supergroup: "supergroup"
        case .silent: "silent"
        case .suppressed: "suppressed"
        case .adminMessage: "admin_message"
        case .notJoined: "not_joined"
        case .inactive: "inactive"
        case .online: "online"
        case .blockingSender: "blocking_sender"
        case .botBlocked: "bot_blocked"
        case .channelOff: "channel_off"
        case .notMentioned: "not_mentioned"
        case .triggerOff: "trigger_off"
        case .snoozed: "snoozed"
        case .doNotDisturb: "do_not_disturb"
        case .noToken: "no_token"
        case .payloadTooLarge: "payload_too_large"
        case .unknown(let raw): raw
        }
    }

    public var description: String { rawValue }
}

extension SkipReason: Codable {
    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
