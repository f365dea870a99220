import PushCore

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

    /// Counts one update the store applied as `action`; `queued`: the pushes a `.queue` made.
    package mutating func count(_ action: BadgeSyncAction, queued: Int) {
        switch action {
        case .stale: stale += 1
        case .unchanged: unchanged += 1
        case .coalesce: coalesced += 1
        case .queue: if queued > 0 { self.queued += queued } else { noTokens += 1 }
        }
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
