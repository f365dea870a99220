/// A `group_channel:message_read` webhook: who read up to when, and their unread counts.
///
/// ```json
/// {"category": "group_channel:message_read", "app_id": "…", "channel": {"channel_url": "…"},
///  "read_updates": [{"user_id": "bob", "read_ts": 1700000000000,
///                    "channel_unread_message_count": 0, "total_unread_message_count": 3}],
///  "members": [{"user_id": "bob", "total_unread_message_count": 3, …}]}
/// ```
///
/// A reader's total comes from their read update, else from their entry in `members` (with
/// "Include member information"); a reader with neither is not in `readers` (nothing to sync).
public struct WebhookReadEvent: Sendable, Hashable {
    public static let category = "group_channel:message_read"

    public struct Reader: Sendable, Hashable {
        public var userID: String
        /// When they read, Unix ms (Sendbird's clock): a later read wins.
        public var readAtMs: Int64
        public var totalUnread: Int

        public init(userID: String, readAtMs: Int64, totalUnread: Int) {
            self.userID = userID
            self.readAtMs = readAtMs
            self.totalUnread = totalUnread
        }
    }

    public var appID: String
    public var channelURL: String
    /// At most one per user (their latest read in the event).
    public var readers: [Reader]
    /// How many read updates the body listed (for the members-per-event limit).
    public var updateCount: Int
}

extension WebhookEnvelope {
    public var isReadEvent: Bool { category == WebhookReadEvent.category }

    /// The read event; throws for a missing or malformed `read_updates` or `channel`.
    public func readEvent() throws(WebhookEventError) -> WebhookReadEvent {
        let reader = JSONObjectReader(root)
        let channel = try reader.requiredObject("channel").requiredID("channel_url")
        guard let updates = reader.array("read_updates") else { throw .missingField("read_updates") }
        var memberTotals: [ExactID: Int] = [:]
        for (index, member) in (reader.array("members") ?? []).enumerated() {
            guard let object = member.objectValue else { continue }
            let entry = JSONObjectReader(object, path: "members[\(index)]")
            guard let id = entry.optionalString("user_id"), IdentifierRules.problem(with: id) == nil,
                let total = entry.optionalInt("total_unread_message_count"), total >= 0
            else { continue }
            memberTotals[ExactID(id)] = total
        }
        var latest: [ExactID: WebhookReadEvent.Reader] = [:]
        var order: [ExactID] = []
        for (index, update) in updates.enumerated() {
            guard let object = update.objectValue else {
                throw .invalidField("read_updates[\(index)]", expected: "an object")
            }
            let entry = JSONObjectReader(object, path: "read_updates[\(index)]")
            let userID = try entry.requiredID("user_id")
            let user = ExactID(userID)
            let readAt = entry.int64("read_ts")
            guard let total = entry.optionalInt("total_unread_message_count").flatMap({ $0 >= 0 ? $0 : nil }) ?? memberTotals[user]
            else { continue }
            if let seen = latest[user], seen.readAtMs > readAt { continue }
            if latest[user] == nil { order.append(user) }
            latest[user] = WebhookReadEvent.Reader(userID: userID, readAtMs: readAt, totalUnread: total)
        }
        return WebhookReadEvent(appID: appID, channelURL: channel, readers: order.compactMap { latest[$0] }, updateCount: updates.count)
    }
}
