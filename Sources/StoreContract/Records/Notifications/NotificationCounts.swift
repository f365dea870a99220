/// What became of a notification's audience so far, from the delivery log.
public struct NotificationCounts: Sendable, Hashable {
    /// Deliveries by state (`DeliveryState.rawValue`): pending, in_flight, sent, failed, expired,
    /// token_invalid (a dead token, removed), cancelled.
    public var deliveries: [String: Int]
    /// Users not pushed, by reason (`SkipReason.rawValue`).
    public var skipped: [String: Int]
    /// Users with at least one delivery.
    public var pushedUsers: Int
    /// Deliveries the devices acknowledged, and those opened.
    public var acknowledged: Int
    public var opened: Int

    public init(deliveries: [String: Int] = [:], skipped: [String: Int] = [:], pushedUsers: Int = 0, acknowledged: Int = 0, opened: Int = 0)
    {
        self.deliveries = deliveries
        self.skipped = skipped
        self.pushedUsers = pushedUsers
        self.acknowledged = acknowledged
        self.opened = opened
    }
}
