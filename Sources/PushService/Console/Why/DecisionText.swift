import PushCore

/// What each decision means, in the words a support engineer can pass on: the policy's reasons
/// (`SkipReason`) with the setting or fact behind each.
enum DecisionText {
    static func explain(_ decision: PushDecision?) -> String {
        guard let decision else {
            return "The relay has no record of this message for this user: the webhook event never reached the relay (or was "
                + "refused), the user was not a member of the channel, or the record was pruned (delivery.prune_after)."
        }
        guard case .skip(let reason) = decision else {
            return "The policy decided to push; each device's push is below."
        }
        return explain(reason)
    }

    /// Message id 0: the pushes sent without a message.
    static let noMessage =
        "Message id 0 is no message: it holds the pushes sent without one. A test push (sent on an operator's or an app "
        + "server's request, at once and to every device, without the policy: preferences, do-not-disturb and snooze do not "
        + "apply) or a badge push (the unread count, after a read). Each is marked below."

    static func explain(_ reason: SkipReason) -> String {
        switch reason {
        case .sender: "The user sent this message; senders get no push for their own messages."
        case .supergroup: "The channel is a supergroup channel, and supergroup channels never push."
        case .silent: "The message was sent silently."
        case .suppressed: "The sender suppressed the push (push_notification_delivery_option: suppress)."
        case .adminMessage: "An admin message, and this app does not push admin messages (its push_admin_messages setting)."
        case .notJoined: "The user was invited to the channel but had not joined it."
        case .inactive: "The user's account is deactivated."
        case .online: "The user was connected and saw the message in the app."
        case .blockingSender: "The user blocks the sender."
        case .botBlocked: "The user blocks pushes from bots (all, or this bot)."
        case .channelOff: "The user turned pushes off for this channel."
        case .notMentioned: "The user wants only mentions in this channel, and the message did not mention them."
        case .triggerOff: "The user turned push notifications off app-wide (push_trigger_option: off)."
        case .snoozed: "The user's snooze was on."
        case .doNotDisturb: "The user's do-not-disturb window covered the time the message was sent."
        case .noToken: "The user had no device token registered."
        case .payloadTooLarge: "The push would not fit the provider's size limit even with the message text cut to nothing."
        case .unknown(let code): "Recorded as \"\(code)\" by a newer version of the relay."
        }
    }
}
