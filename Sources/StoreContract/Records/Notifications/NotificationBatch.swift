import PushCore

/// One step of a notification's fan-out, committed in one transaction: the decisions and
/// deliveries of a batch of users, and where the walk stands after them. Committed only while
/// `owner` holds the notification (a cancel, or another relay taking over an expired hold, makes
/// it refused): no user is planned twice, none lost.
public struct NotificationBatch: Sendable, Hashable {
    public var notificationID: Int64
    public var appID: String
    public var owner: String
    public var decisions: [RecipientDecisionRecord]
    public var deliveries: [NewDelivery]
    /// Users of the `due` phase planned in this batch (their notes go).
    public var planned: [NotedRecipient]
    /// Users of the `staging` phase noted in this batch, with their times.
    public var noted: [NotedRecipient]
    public var phase: NotificationPhase
    public var cursor: String?
    /// Users planned in this batch (added to `plannedUsers`).
    public var plannedCount: Int
    public var nextRunAtMs: Int64
    /// Whether the whole audience is planned now.
    public var finished: Bool
    public var nowMs: Int64
    /// How long the hold lasts from now.
    public var leaseMs: Int64

    public init(
        notificationID: Int64, appID: String, owner: String, decisions: [RecipientDecisionRecord] = [],
        deliveries: [NewDelivery] = [], planned: [NotedRecipient] = [], noted: [NotedRecipient] = [], phase: NotificationPhase,
        cursor: String?, plannedCount: Int, nextRunAtMs: Int64, finished: Bool, nowMs: Int64, leaseMs: Int64
    ) {
        self.notificationID = notificationID
        self.appID = appID
        self.owner = owner
        self.decisions = decisions
        self.deliveries = deliveries
        self.planned = planned
        self.noted = noted
        self.phase = phase
        self.cursor = cursor
        self.plannedCount = plannedCount
        self.nextRunAtMs = nextRunAtMs
        self.finished = finished
        self.nowMs = nowMs
        self.leaseMs = leaseMs
    }

    /// The message id the deliveries carry.
    public var messageID: Int64 { -notificationID }
}

/// A user of a local-time notification with the moment their time comes.
public struct NotedRecipient: Sendable, Hashable {
    public var userID: String
    public var dueAtMs: Int64

    public init(userID: String, dueAtMs: Int64) {
        self.userID = userID
        self.dueAtMs = dueAtMs
    }
}
