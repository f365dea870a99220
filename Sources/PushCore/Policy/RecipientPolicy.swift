import Foundation

/// Decides, for one member and one message, whether to push, and if not, why.
///
/// Rules are checked **in this order**; the first that applies is the reason recorded:
///
/// | # | reason | skips when |
/// |---|---|---|
/// | 1 | `sender` | the member sent the message |
/// | 2 | `supergroup` | the channel is a Supergroup (never pushed) |
/// | 3 | `silent` | the message is silent |
/// | 4 | `suppressed` | delivery option `suppress` |
/// | 5 | `admin_message` | an `ADMM` and the app does not push admin messages |
/// | 6 | `not_joined` | the member's state is not `joined` |
/// | 7 | `inactive` | the member is deactivated |
/// | 8 | `online` | the member is online (unless the app pushes online members) |
/// | 9 | `blocking_sender` | the member blocks the sender |
/// | 10 | `bot_blocked` | the member blocks bots (all, or this bot) and the sender is one |
/// | 11 | `channel_off` | the channel option is `off` |
/// | 12 | `not_mentioned` | `mention_only` (channel, or channel `default` + user) and no mention |
/// | 13 | `trigger_off` | channel `default` and the user option is `off` |
/// | 14 | `snoozed` | snooze is active |
/// | 15 | `do_not_disturb` | a do-not-disturb window covers now |
/// | 16 | `no_token` | the member has no device token |
///
/// Why this order: facts about the message and channel come first (1–5): they are the cheapest
/// and the most final, and the same for every member, so an operator sees at once that nobody
/// was pushed because the message was silent. Then facts about membership and presence (6–10),
/// which no preference can override. Then the member's own preferences (11–13), trigger options
/// before time-based quiet (14–15) so the reason shown is the most specific, permanent one
/// ("you turned this channel off" rather than "it was night"); snooze before do-not-disturb as
/// in Sendbird's evaluation order. `no_token` is last: the reason is then "nothing to push to"
/// only for members who would otherwise have been pushed, which is what an operator debugging
/// token registration wants to find.
///
/// A channel option other than `default` replaces the user's option: channel `all` pushes even
/// when the user's app-wide option is `off`.
///
/// **`force`** (delivery option, undocumented by Sendbird): bypasses the member's notification
/// preferences (rules 11–15: channel off, mention-only, trigger off, snooze, do-not-disturb). It
/// does not bypass anything else: not the message's own flags (silent, admin gate), not
/// membership, presence or blocks, and not a missing token.
public struct RecipientPolicy: Sendable {
    public let options: AppPushOptions

    public init(options: AppPushOptions = .defaults) {
        self.options = options
    }

    public func decide(
        event: WebhookEvent,
        member: WebhookMember,
        userPreferences: UserPushPreferences,
        channelPreference: ChannelPushPreference,
        deviceTokenCount: Int,
        now: Date
    ) -> PushDecision {
        if let reason = skipBeforePreferences(event: event, member: member) { return .skip(reason) }
        if let sender = event.sender, sender.isBot, userPreferences.blockPushFromBots,
            userPreferences.pushBlockedBotIDs.isEmpty
                || userPreferences.pushBlockedBotIDs.contains(where: { $0.sameBytes(as: sender.userID) })
        {
            return .skip(.botBlocked)
        }
        if event.deliveryOption != .force {
            if let reason = triggerReason(
                event: event, member: member, user: userPreferences.pushTriggerOption,
                channel: channelPreference.triggerOption)
            {
                return .skip(reason)
            }
            if Snooze.isActive(userPreferences, at: now) { return .skip(.snoozed) }
            if DoNotDisturb.isActive(userPreferences, at: now) { return .skip(.doNotDisturb) }
        }
        if deviceTokenCount <= 0 { return .skip(.noToken) }
        return .push
    }

    /// Rules 1–9, which depend only on the event: a member skipped here needs nothing from the
    /// store, so callers can leave such members out of their bulk lookup.
    public func skipBeforePreferences(event: WebhookEvent, member: WebhookMember) -> SkipReason? {
        if let sender = event.sender, sender.userID.sameBytes(as: member.userID) { return .sender }
        if event.channel.isSuper { return .supergroup }
        if event.silent { return .silent }
        if event.deliveryOption == .suppress { return .suppressed }
        if event.type == .admm && !options.pushAdminMessages { return .adminMessage }
        if member.state != .joined { return .notJoined }
        if !member.isActive { return .inactive }
        if member.isOnline && !options.multiDevice { return .online }
        if member.isBlockingSender { return .blockingSender }
        return nil
    }

    /// Rules 11–13: the channel option, or the user's when the channel says `default`.
    func triggerReason(
        event: WebhookEvent,
        member: WebhookMember,
        user: PushTriggerOption,
        channel: ChannelPushTriggerOption
    ) -> SkipReason? {
        let mentionOnly: Bool
        switch channel {
        case .off: return .channelOff
        case .all: return nil
        case .mentionOnly: mentionOnly = true
        case .default:
            switch user {
            case .all: return nil
            case .mentionOnly: mentionOnly = true
            case .off: return .triggerOff
            }
        }
        if mentionOnly && !event.mentions(userID: member.userID) { return .notMentioned }
        return nil
    }
}
