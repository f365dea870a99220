import PushCore

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

/// What `syncBadges` did with each update, counted.
public struct BadgeSyncResult: Sendable, Hashable {
    /// Background pushes queued (one per device token).
    public var queued = 0
    /// Updates folded into a badge push still waiting out the interval (the latest count wins).
    public var coalesced = 0
    /// Updates whose count was what the devices have (or are about to get).
    public var unchanged = 0
    /// Updates older than one applied already (a retried or late webhook).
    public var stale = 0
    /// Updates for users without a device token.
    public var noTokens = 0

    public init() {}
}

/// How badge pushes are made: the caller's settings, the store's rows.
public struct BadgePushSettings: Sendable, Hashable {
    /// At most one badge push per user per this many ms.
    public var intervalMs: Int64
    /// How long APNs keeps trying (the app's time to live).
    public var timeToLiveMs: Int64

    public init(intervalMs: Int64, timeToLiveMs: Int64) {
        self.intervalMs = intervalMs
        self.timeToLiveMs = timeToLiveMs
    }
}

/// The counts a message push carried to its recipients (their total unread), for apps with
/// badge sync: the latest badge each device shows, which a badge push still waiting must not
/// undo.
public struct BadgeSnapshot: Sendable, Hashable {
    /// By user id's bytes (`ExactID`), as the store keeps users.
    public var counts: [ExactID: Int]
    /// The message's `created_at` (Sendbird's clock): reads older than it are stale.
    public var atMs: Int64

    public init(counts: [ExactID: Int], atMs: Int64) {
        self.counts = counts
        self.atMs = atMs
    }
}
