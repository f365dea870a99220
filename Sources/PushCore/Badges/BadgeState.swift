/// What a store keeps of one reader's badge (a `badges` row): the count their devices have or
/// are about to get, the read it came from, and when the last badge push was due.
public struct BadgeState: Sendable, Hashable {
    public var badge: Int
    /// The latest read applied (Sendbird's clock); a message push sets it to the message's time.
    public var readAtMs: Int64
    /// When the last badge push was due: the next waits until `BadgePushSettings.intervalMs`
    /// after it. `Int64.min` when there was none.
    public var queuedAtMs: Int64

    public init(badge: Int, readAtMs: Int64, queuedAtMs: Int64) {
        self.badge = badge
        self.readAtMs = readAtMs
        self.queuedAtMs = queuedAtMs
    }
}
