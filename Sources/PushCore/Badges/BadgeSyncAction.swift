/// What badge sync does with one reader's update, the same on every store: a pure decision
/// from what the store read (`decide`); the store performs it with its own SQL and stores
/// `record(queued:)`.
public enum BadgeSyncAction: Sendable, Hashable {
    /// Read before (or when) the last update applied: a retried or late webhook. Nothing changes.
    case stale
    /// The count the devices have or are about to get: only the read is recorded.
    case unchanged(record: BadgeState)
    /// A badge push still waits out the interval: its payload takes the new count (the latest wins).
    case coalesce(record: BadgeState)
    /// No badge push waits: one per device token (none: the reader has no token).
    case queue(BadgeQueueing)

    /// - Parameters:
    ///   - last: the reader's stored state; nil when there is none.
    ///   - pushWaiting: whether a badge push of theirs is still pending.
    public static func decide(
        last: BadgeState?, update: BadgeUpdate, pushWaiting: Bool, nowMs: Int64, settings: BadgePushSettings
    ) -> BadgeSyncAction {
        let lastRead = last?.readAtMs ?? .min
        let lastQueued = last?.queuedAtMs ?? .min
        guard update.readAtMs > lastRead else { return .stale }
        let record = BadgeState(badge: update.badge, readAtMs: update.readAtMs, queuedAtMs: lastQueued)
        if last?.badge == update.badge { return .unchanged(record: record) }
        if pushWaiting { return .coalesce(record: record) }
        let due = max(nowMs, UnixTime.adding(settings.intervalMs, to: lastQueued))
        return .queue(
            BadgeQueueing(
                badge: update.badge, dueAtMs: due, expiresAtMs: UnixTime.adding(settings.timeToLiveMs, to: due),
                readAtMs: update.readAtMs, lastQueuedAtMs: lastQueued))
    }

    /// The state to store once the action is done (`queued`: the pushes a `.queue` made); nil for
    /// `.stale`, which stores nothing.
    public func record(queued: Int) -> BadgeState? {
        switch self {
        case .stale: nil
        case .unchanged(let record), .coalesce(let record): record
        case .queue(let queueing): queueing.record(queued: queued)
        }
    }
}
