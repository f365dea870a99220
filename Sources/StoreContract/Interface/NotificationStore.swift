/// Notifications of the app's server (`POST /v3/notifications`) and their fan-out: stored before
/// they are answered, then planned in batches, each batch committed with the walk's position so a
/// crash or a relay's death loses no user and plans none twice. On PostgreSQL every relay of a
/// fleet takes notifications in turn (a hold that expires when its relay dies).
public protocol NotificationStore: Sendable {
    /// Stores a notification, or, for an `Idempotency-Key` already used by the app, finds the first:
    /// the same request hash is a repeat, another is a reuse of the key.
    func createNotification(_ notification: NewNotification) async throws -> NotificationCreation

    func notification(app: String, id: Int64) async throws -> NotificationRecord?

    /// The app's notifications, newest first, those below `beforeID` (when given), at most `limit`;
    /// only open ones when `openOnly`.
    func notifications(app: String, beforeID: Int64?, limit: Int, openOnly: Bool) async throws -> [NotificationRecord]

    /// Cancels an open notification: no more users are planned, its noted users are dropped and
    /// its pending deliveries become `cancelled`. Returns the record as it is after (unchanged when
    /// it was not open); nil when the app has no such notification.
    func cancelNotification(app: String, id: Int64, nowMs: Int64) async throws -> NotificationRecord?

    /// Takes the open notification due soonest (its `nextRunAtMs` at or before `nowMs`) that no
    /// relay holds, or whose hold expired, for `owner` until `nowMs + leaseMs`.
    func claimNotification(owner: String, nowMs: Int64, leaseMs: Int64) async throws -> NotificationRecord?

    /// When the next open notification is due; nil when none is open.
    func nextNotificationRunAtMs() async throws -> Int64?

    /// The topic's subscribers after `cursor` in byte order, at most `limit`.
    func topicSubscribers(app: String, topic: String, after cursor: String?, limit: Int) async throws -> [String]

    /// The noted users of a local-time notification whose time is at or before `nowMs`, earliest
    /// first, at most `limit`.
    func dueRecipients(notificationID: Int64, nowMs: Int64, limit: Int) async throws -> [NotedRecipient]

    /// When the next noted user's time comes; nil when none is left.
    func nextRecipientDueAtMs(notificationID: Int64) async throws -> Int64?

    /// Commits a batch (`NotificationBatch`) in one transaction; false, writing nothing, when
    /// `owner` no longer holds the notification or it is no longer open.
    func commitNotificationBatch(_ batch: NotificationBatch) async throws -> Bool

    /// What became of the notification's audience so far.
    func notificationCounts(app: String, id: Int64) async throws -> NotificationCounts

    /// Subscribes users to a topic; returns how many were not subscribed yet.
    func subscribe(app: String, topic: String, users: [String], nowMs: Int64) async throws -> Int

    /// Unsubscribes users; returns how many were subscribed.
    func unsubscribe(app: String, topic: String, users: [String]) async throws -> Int

    /// The user's topics, in byte order.
    func topics(app: String, user: String) async throws -> [String]

    /// How many users a topic has.
    func subscriberCount(app: String, topic: String) async throws -> Int

    /// Deletes notifications finished (done or cancelled) before `cutoffMs`, as the delivery log
    /// they name is pruned; returns how many.
    @discardableResult
    func pruneNotifications(finishedBeforeMs cutoffMs: Int64) async throws -> Int
}
