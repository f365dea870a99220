/// A stored notification and where its fan-out stands.
public struct NotificationRecord: Sendable, Hashable {
    public var id: Int64
    public var request: NewNotification
    public var state: NotificationState
    public var phase: NotificationPhase
    /// The last user planned (or noted), in byte order; nil before the first.
    public var cursor: String?
    /// Users planned so far.
    public var plannedUsers: Int
    /// Unix ms when the fan-out next runs.
    public var nextRunAtMs: Int64
    public var finishedAtMs: Int64?

    public init(
        id: Int64, request: NewNotification, state: NotificationState, phase: NotificationPhase, cursor: String?,
        plannedUsers: Int, nextRunAtMs: Int64, finishedAtMs: Int64?
    ) {
        self.id = id
        self.request = request
        self.state = state
        self.phase = phase
        self.cursor = cursor
        self.plannedUsers = plannedUsers
        self.nextRunAtMs = nextRunAtMs
        self.finishedAtMs = finishedAtMs
    }

    public var appID: String { request.appID }

    /// The message id its deliveries and decisions carry (`NotificationPayload.messageID`).
    public var messageID: Int64 { -id }
}

/// What storing a notification did: stored it, or found the one stored under the same
/// `Idempotency-Key`, for the same body or for another.
public enum NotificationCreation: Sendable, Hashable {
    case created(NotificationRecord)
    case repeated(NotificationRecord)
    case keyReused(NotificationRecord)
}
