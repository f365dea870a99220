import StoreContract

// TEMPORARY stub while the PostgreSQL implementation is written on branch pg-59.
extension PostgresStore {
    struct NotImplemented: Error {}
    public func createNotification(_ notification: NewNotification) async throws -> NotificationCreation { throw NotImplemented() }
    public func notification(app: String, id: Int64) async throws -> NotificationRecord? { throw NotImplemented() }
    public func notifications(app: String, beforeID: Int64?, limit: Int, openOnly: Bool) async throws -> [NotificationRecord] { throw NotImplemented() }
    public func cancelNotification(app: String, id: Int64, nowMs: Int64) async throws -> NotificationRecord? { throw NotImplemented() }
    public func claimNotification(owner: String, nowMs: Int64, leaseMs: Int64) async throws -> NotificationRecord? { nil }
    public func nextNotificationRunAtMs() async throws -> Int64? { nil }
    public func topicSubscribers(app: String, topic: String, after cursor: String?, limit: Int) async throws -> [String] { throw NotImplemented() }
    public func dueRecipients(notificationID: Int64, nowMs: Int64, limit: Int) async throws -> [NotedRecipient] { throw NotImplemented() }
    public func nextRecipientDueAtMs(notificationID: Int64) async throws -> Int64? { throw NotImplemented() }
    public func commitNotificationBatch(_ batch: NotificationBatch) async throws -> Bool { throw NotImplemented() }
    public func notificationCounts(app: String, id: Int64) async throws -> NotificationCounts { throw NotImplemented() }
    public func subscribe(app: String, topic: String, users: [String], nowMs: Int64) async throws -> Int { throw NotImplemented() }
    public func unsubscribe(app: String, topic: String, users: [String]) async throws -> Int { throw NotImplemented() }
    public func topics(app: String, user: String) async throws -> [String] { throw NotImplemented() }
    public func subscriberCount(app: String, topic: String) async throws -> Int { throw NotImplemented() }
}
