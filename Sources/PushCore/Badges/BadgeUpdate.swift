/// A reader's new total unread, from a `group_channel:message_read` webhook (`badge_sync`).
public struct BadgeUpdate: Sendable, Hashable {
    public var userID: String
    public var badge: Int
    /// When they read (Sendbird's clock): an update older than the last one applied is stale.
    public var readAtMs: Int64

    public init(userID: String, badge: Int, readAtMs: Int64) {
        self.userID = userID
        self.badge = badge
        self.readAtMs = readAtMs
    }
}
