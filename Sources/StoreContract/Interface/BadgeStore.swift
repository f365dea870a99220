import PushCore

/// Badge sync (`badge_sync`): background pushes that set a reader's badge to their new total, to
/// their APNs tokens (an app icon badge is iOS's; Android shows none from a data message).
public protocol BadgeStore: Sendable {
    /// Applies read updates in one transaction. Per user: a stale update (read before the last
    /// applied) is ignored; the same count as last sent or queued is skipped; a badge push still
    /// waiting takes the new count (latest wins); otherwise one background push per device token
    /// is queued (message id 0, push type background, priority 5), due when the user's interval
    /// since the last one has passed.
    func syncBadges(app: String, updates: [BadgeUpdate], nowMs: Int64, settings: BadgePushSettings) async throws -> BadgeSyncResult
}
