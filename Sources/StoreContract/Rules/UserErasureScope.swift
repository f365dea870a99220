/// What erasing a user removes and what it leaves, written once: both stores run the SQL for each
/// part, in this order, in one transaction, and switch over `Part` exhaustively, so a part added
/// here is a compile error in a store that does not erase it yet.
public enum UserErasureScope {
    public enum Part: Sendable, CaseIterable {
        /// Pushes of the user's messages to others: their payloads go; pending ones fail with
        /// `pendingPushReason` (sent ones stay in the log, without their bytes).
        case sentPushes
        /// The user's messages: the bytes their pushes shared go, and the events keep no sender.
        case sentMessages
        /// The user's own deliveries, with their payloads and attempts.
        case ownDeliveries
        /// The delivery log's decisions about the user (skips name members who never registered).
        case decisions
        /// Rows keyed by the user (`userKeyedTables`), the users row last: its device tokens and
        /// preferences go with it (ON DELETE CASCADE).
        case userRows
    }

    public static let parts = Part.allCases

    /// Why a pending push of an erased user's message was never sent, in the delivery log.
    public static let pendingPushReason = "UserDeleted"

    /// Tables whose rows `(app_id, user_id)` names go whole, parents last.
    public static let userKeyedTables = [
        "session_tokens", "badges", "live_activity_start_tokens", "live_activities", "topic_subscriptions",
        "notification_recipients", "users",
    ]
}
