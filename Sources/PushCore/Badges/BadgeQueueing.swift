/// Badge pushes to queue for a reader, one per device token: the store finds the tokens, then
/// records what `record(queued:)` says.
public struct BadgeQueueing: Sendable, Hashable {
    /// The count the pushes carry.
    public var badge: Int
    /// Now, or the end of the interval since the last badge push.
    public var dueAtMs: Int64
    /// `dueAtMs` plus the time to live.
    public var expiresAtMs: Int64
    var readAtMs: Int64
    var lastQueuedAtMs: Int64

    /// The state to store once `queued` pushes were queued. With none (the reader has no device
    /// token) the interval still counts from the last push that was.
    public func record(queued: Int) -> BadgeState {
        BadgeState(badge: badge, readAtMs: readAtMs, queuedAtMs: queued > 0 ? dueAtMs : lastQueuedAtMs)
    }
}
