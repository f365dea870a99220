import PushCore

/// Where a Live Activity push goes and what it makes of the activity, written once for both
/// stores (each holds only its SQL).
public enum LiveActivityQueueRule {
    public enum Target: Sendable, Hashable {
        case refuse(LiveActivityQueueResult)
        /// A start: the user's push-to-start tokens of the attributes type.
        case toStartTokens(user: String, attributesType: String)
        /// An update or end: the activity's update token.
        case toUpdateToken(String)
    }

    /// How long an ended activity stays without a dismissal date: ActivityKit keeps it on the
    /// Lock Screen for up to four hours.
    public static let defaultDismissalMs: Int64 = 4 * 3_600_000

    public static func check(_ push: LiveActivityPush, existing: LiveActivityRecord?) -> Target {
        switch push.event {
        case .start:
            guard let user = push.userID, let type = push.attributesType else { return .refuse(.noToken) }
            if let existing, !existing.userID.sameBytes(as: user) { return .refuse(.otherUsersActivity) }
            return .toStartTokens(user: user, attributesType: type)
        case .update, .end:
            guard let existing else { return .refuse(.unknownActivity) }
            if existing.state == .ended { return .refuse(.ended) }
            guard let token = existing.updateToken else { return .refuse(.noToken) }
            return .toUpdateToken(token)
        }
    }

    /// The activity once `push` is queued (its update token as it was).
    public static func recorded(_ push: LiveActivityPush, existing: LiveActivityRecord?) -> LiveActivityRecord {
        var record =
            existing
            ?? LiveActivityRecord(
                appID: push.appID, activityID: push.activityID, userID: push.userID ?? "", createdAtMs: push.atMs,
                updatedAtMs: push.atMs)
        record.updatedAtMs = push.atMs
        if push.priority == 10 { record.highPriorityPushes += 1 }
        switch push.event {
        case .start:
            record.attributesType = push.attributesType
            if record.state == .ended { (record.state, record.endedAtMs, record.removeAtMs) = (.started, nil, nil) }
        case .update:
            record.state = .active
        case .end:
            record.state = .ended
            record.endedAtMs = push.atMs
            record.removeAtMs = push.removeAtMs ?? push.atMs + defaultDismissalMs
        }
        return record
    }
}
