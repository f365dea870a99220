import Foundation
import PostgresNIO
import PushCore
import StoreContract

/// Notifications of the app's server and topic subscriptions (`NotificationStore`), as
/// `SQLiteStore` keeps them, shared by the fleet: each notification is held by one relay at a
/// time (a lease that expires when its relay dies), and a batch commits only while its relay
/// still holds it.
extension PostgresStore {
    static let notificationColumns = """
        id, app_id, state, audience_kind, audience, content, collapse_key, send_at_ms, local_minute, pushes_per_minute, \
        idempotency_key, request_hash, phase, cursor, planned_users, next_run_at_ms, created_at_ms, finished_at_ms
        """

    /// Two statements: the insert, and when the key's row was there already, its read. A
    /// concurrent request with the same key waits at the unique index for the first to commit,
    /// then finds its row (the second statement's snapshot is taken after the wait).
    public func createNotification(_ n: NewNotification) async throws -> NotificationCreation {
        let audience = n.audience.stored
        let state = n.sendAtMs > n.createdAtMs ? NotificationState.scheduled : .sending
        let phase: NotificationPhase = n.localMinute == nil ? .audience : .staging
        return try await withConnection { connection in
            if let created = try await connection.rows(
                """
                INSERT INTO notifications (app_id, state, audience_kind, audience, content, collapse_key, send_at_ms,
                    local_minute, pushes_per_minute, idempotency_key, request_hash, phase, next_run_at_ms, created_at_ms)
                VALUES (\(n.appID), \(state.rawValue), \(audience.kind), \(audience.text), \(n.content), \(n.collapseKey),
                    \(n.sendAtMs), \(n.localMinute.map(Int64.init)), \(n.pushesPerMinute.map(Int64.init)), \(n.idempotencyKey),
                    \(n.requestHash), \(phase.rawValue), \(n.sendAtMs), \(n.createdAtMs))
                ON CONFLICT (app_id, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING
                RETURNING \(unescaped: Self.notificationColumns)
                """, logger: logger, Self.notification(row:)
            ).first {
                return .created(created)
            }
            guard let key = n.idempotencyKey,
                let first = try await connection.rows(
                    """
                    SELECT \(unescaped: Self.notificationColumns) FROM notifications
                    WHERE app_id = \(n.appID) AND idempotency_key = \(key)
                    """, logger: logger, Self.notification(row:)
                ).first
            else {
                // Only the key's index refuses a row quietly, and notifications are never deleted.
                throw PushStoreError.corruptValue(table: "notifications", column: "idempotency_key", value: n.idempotencyKey ?? "")
            }
            return first.request.requestHash == n.requestHash ? .repeated(first) : .keyReused(first)
        }
    }

    public func notification(app: String, id: Int64) async throws -> NotificationRecord? {
        try await withConnection { connection in
            try await connection.rows(
                "SELECT \(unescaped: Self.notificationColumns) FROM notifications WHERE app_id = \(app) AND id = \(id)",
                logger: logger, Self.notification(row:)
            ).first
        }
    }

    public func notifications(app: String, beforeID: Int64?, limit: Int, openOnly: Bool) async throws -> [NotificationRecord] {
        try await withConnection { connection in
            try await connection.rows(
                """
                SELECT \(unescaped: Self.notificationColumns) FROM notifications
                WHERE app_id = \(app) AND id < \(beforeID ?? Int64.max) AND (NOT \(openOnly) OR state IN ('scheduled', 'sending'))
                ORDER BY id DESC LIMIT \(Int64(max(0, limit)))
                """, logger: logger, Self.notification(row:))
        }
    }

    /// The notification first (a relay committing a batch of it holds its row until it commits,
    /// so this waits for that batch), then, in statements of their own that see that batch's
    /// deliveries, its noted users and pending deliveries.
    public func cancelNotification(app: String, id: Int64, nowMs: Int64) async throws -> NotificationRecord? {
        try await transaction { connection in
            let cancelled = try await connection.rows(
                """
                UPDATE notifications SET state = 'cancelled', finished_at_ms = \(nowMs), lease_owner = NULL
                WHERE app_id = \(app) AND id = \(id) AND state IN ('scheduled', 'sending')
                RETURNING \(unescaped: Self.notificationColumns)
                """, logger: logger, Self.notification(row:)
            ).first
            guard let cancelled else {
                return try await connection.rows(
                    "SELECT \(unescaped: Self.notificationColumns) FROM notifications WHERE app_id = \(app) AND id = \(id)",
                    logger: logger, Self.notification(row:)
                ).first
            }
            try await connection.run("DELETE FROM notification_recipients WHERE notification_id = \(id)", logger: logger)
            try await connection.run(
                """
                UPDATE deliveries SET state = 'cancelled', updated_at_ms = \(nowMs)
                WHERE app_id = \(app) AND message_id = \(-id) AND state = 'pending'
                """, logger: logger)
            return cancelled
        }
    }

    /// One statement: the row is locked as it is picked (`FOR UPDATE SKIP LOCKED`), so two relays
    /// claiming at once never get the same notification, and neither waits for the other.
    public func claimNotification(owner: String, nowMs: Int64, leaseMs: Int64) async throws -> NotificationRecord? {
        try await withConnection { connection in
            try await connection.rows(
                """
                WITH picked AS (
                    SELECT id FROM notifications
                    WHERE state IN ('scheduled', 'sending') AND next_run_at_ms <= \(nowMs)
                        AND (lease_until_ms < \(nowMs) OR lease_owner = \(owner))
                    ORDER BY next_run_at_ms, id LIMIT 1
                    FOR UPDATE SKIP LOCKED
                )
                UPDATE notifications n SET state = 'sending', lease_owner = \(owner), lease_until_ms = \(nowMs + leaseMs)
                FROM picked WHERE n.id = picked.id
                RETURNING \(unescaped: Self.prefixed("n", Self.notificationColumns))
                """, logger: logger, Self.notification(row:)
            ).first
        }
    }

    /// Another relay's notification counts as due once its hold runs out, when a claim here would
    /// take it over (as `nextDueAtMs` counts deliveries): while it is held, a relay with none
    /// of its own waits instead of trying again and again. Holders are told apart by node id, the
    /// owner relays claim as.
    public func nextNotificationRunAtMs() async throws -> Int64? {
        try await withConnection { connection in
            try await connection.value(
                """
                SELECT MIN(CASE WHEN lease_owner IS NOT NULL AND lease_owner <> \(nodeID)
                    THEN GREATEST(next_run_at_ms, lease_until_ms + 1) ELSE next_run_at_ms END)
                FROM notifications WHERE state IN ('scheduled', 'sending')
                """, as: Int64.self, logger: logger)
        }
    }

    public func topicSubscribers(app: String, topic: String, after cursor: String?, limit: Int) async throws -> [String] {
        try await withConnection { connection in
            try await connection.rows(
                """
                SELECT user_id FROM topic_subscriptions WHERE app_id = \(app) AND topic = \(topic) AND user_id > \(cursor ?? "")
                ORDER BY user_id LIMIT \(Int64(max(0, limit)))
                """, logger: logger
            ) { try $0.decode(String.self) }
        }
    }

    public func dueRecipients(notificationID: Int64, nowMs: Int64, limit: Int) async throws -> [NotedRecipient] {
        try await withConnection { connection in
            try await connection.rows(
                """
                SELECT user_id, due_at_ms FROM notification_recipients WHERE notification_id = \(notificationID) AND due_at_ms <= \(nowMs)
                ORDER BY due_at_ms, user_id LIMIT \(Int64(max(0, limit)))
                """, logger: logger
            ) { row in
                let (user, due) = try row.decode((String, Int64).self)
                return NotedRecipient(userID: user, dueAtMs: due)
            }
        }
    }

    public func nextRecipientDueAtMs(notificationID: Int64) async throws -> Int64? {
        try await withConnection { connection in
            try await connection.value(
                "SELECT MIN(due_at_ms) FROM notification_recipients WHERE notification_id = \(notificationID)", as: Int64.self,
                logger: logger)
        }
    }

    /// One transaction, two statements. The first moves the notification on only while `owner`
    /// holds it and it is still going out, and notes and drops the batch's users; its row lock
    /// keeps a cancel waiting until the batch is in (another relay's claim passes the row by),
    /// and a batch that comes after a cancel or a takeover writes nothing. The second writes the
    /// decisions and deliveries as a webhook event's are written.
    public func commitNotificationBatch(_ batch: NotificationBatch) async throws -> Bool {
        let leaseUntil = WallClock.adding(configuration.leaseMilliseconds, to: clock())
        return try await transaction { connection in
            let held = try await connection.count(Self.advance(batch), logger: logger) > 0
            guard held else { return false }
            let event = AcceptedEvent(
                appID: batch.appID, messageID: batch.messageID, channelURL: "", acceptedAtMs: batch.nowMs,
                decisions: batch.decisions, deliveries: batch.deliveries)
            _ = try await Self.recordDecisionsAndDeliveries(of: event, nodeID: nodeID, leaseUntil: leaseUntil, connection, logger: logger)
            return true
        }
    }

    /// The batch's step for the notification row and its noted users; a row when it was taken.
    private static func advance(_ batch: NotificationBatch) -> PostgresQuery {
        let state = batch.finished ? NotificationState.done : .sending
        return """
            WITH held AS (
                UPDATE notifications SET phase = \(batch.phase.rawValue), cursor = \(batch.cursor),
                    planned_users = planned_users + \(Int64(batch.plannedCount)), next_run_at_ms = \(batch.nextRunAtMs),
                    lease_until_ms = \(batch.nowMs + batch.leaseMs), state = \(state.rawValue),
                    finished_at_ms = \(batch.finished ? batch.nowMs : nil)
                WHERE id = \(batch.notificationID) AND lease_owner = \(batch.owner) AND state = 'sending'
                RETURNING id
            ), noted AS (
                INSERT INTO notification_recipients (notification_id, due_at_ms, user_id, app_id)
                SELECT held.id, r.due_at_ms, r.user_id, \(batch.appID)
                FROM held, unnest(\(PostgresArray.int8(batch.noted.map(\.dueAtMs))), \(PostgresArray.text(batch.noted.map(\.userID))))
                    AS r(due_at_ms, user_id)
                ON CONFLICT DO NOTHING
            ), dropped AS (
                DELETE FROM notification_recipients t
                USING held, unnest(\(PostgresArray.int8(batch.planned.map(\.dueAtMs))), \(PostgresArray.text(batch.planned.map(\.userID))))
                    AS p(due_at_ms, user_id)
                WHERE t.notification_id = held.id AND t.due_at_ms = p.due_at_ms AND t.user_id = p.user_id
            )
            SELECT id FROM held
            """
    }

    /// Deliveries by state, the acknowledged and opened ones, the users pushed and the skips,
    /// from one snapshot.
    public func notificationCounts(app: String, id: Int64) async throws -> NotificationCounts {
        try await transaction(.snapshot) { connection in
            var counts = NotificationCounts()
            for row in try await connection.rows(
                """
                SELECT state, COUNT(*), COUNT(acknowledged_at_ms), COUNT(clicked_at_ms) FROM deliveries
                WHERE app_id = \(app) AND message_id = \(-id) GROUP BY state
                """, logger: logger)
            {
                let (state, count, acknowledged, opened) = try row.decode((String, Int, Int, Int).self)
                counts.deliveries[state] = count
                counts.acknowledged += acknowledged
                counts.opened += opened
            }
            counts.pushedUsers =
                try await connection.value(
                    "SELECT COUNT(DISTINCT user_id) FROM deliveries WHERE app_id = \(app) AND message_id = \(-id)", as: Int.self,
                    logger: logger) ?? 0
            for row in try await connection.rows(
                "SELECT decision, COUNT(*) FROM decisions WHERE app_id = \(app) AND message_id = \(-id) GROUP BY decision",
                logger: logger)
            {
                let (decision, count) = try row.decode((String, Int).self)
                counts.skipped[decision] = count
            }
            return counts
        }
    }

    /// In byte order, so two relays subscribing overlapping users wait for each other instead of
    /// deadlocking.
    public func subscribe(app: String, topic: String, users: [String], nowMs: Int64) async throws -> Int {
        guard !users.isEmpty else { return 0 }
        return try await withConnection { connection in
            try await connection.count(
                """
                INSERT INTO topic_subscriptions (app_id, topic, user_id, created_at_ms)
                SELECT \(app), \(topic), u, \(nowMs) FROM unnest(\(PostgresArray.text(users))) AS u ORDER BY u COLLATE "C"
                ON CONFLICT DO NOTHING RETURNING 1
                """, logger: logger)
        }
    }

    public func unsubscribe(app: String, topic: String, users: [String]) async throws -> Int {
        guard !users.isEmpty else { return 0 }
        return try await withConnection { connection in
            try await connection.count(
                """
                DELETE FROM topic_subscriptions
                WHERE app_id = \(app) AND topic = \(topic) AND user_id = ANY(\(PostgresArray.text(users))) RETURNING 1
                """, logger: logger)
        }
    }

    public func topics(app: String, user: String) async throws -> [String] {
        try await withConnection { connection in
            try await connection.rows(
                "SELECT topic FROM topic_subscriptions WHERE app_id = \(app) AND user_id = \(user) ORDER BY topic", logger: logger
            ) { try $0.decode(String.self) }
        }
    }

    public func subscriberCount(app: String, topic: String) async throws -> Int {
        try await withConnection { connection in
            try await connection.value(
                "SELECT COUNT(*) FROM topic_subscriptions WHERE app_id = \(app) AND topic = \(topic)", as: Int.self, logger: logger)
                ?? 0
        }
    }

    @discardableResult
    public func pruneNotifications(finishedBeforeMs cutoffMs: Int64) async throws -> Int {
        try await withConnection { connection in
            try await connection.count(
                "DELETE FROM notifications WHERE state IN ('done', 'cancelled') AND finished_at_ms < \(cutoffMs) RETURNING 1",
                logger: logger)
        }
    }

    /// A row of `SELECT \(notificationColumns)`.
    static func notification(row: PostgresRow) throws -> NotificationRecord {
        let c = row.makeRandomAccess()
        let (kind, audience) = (try c[3].decode(String.self), try c[4].decode(String.self))
        let request = NewNotification(
            appID: try c[1].decode(String.self), audience: try NotificationAudience(kind: kind, text: audience),
            content: try c[5].decode(String.self), collapseKey: try c[6].decode(String?.self), sendAtMs: try c[7].decode(Int64.self),
            localMinute: try c[8].decode(Int?.self), pushesPerMinute: try c[9].decode(Int?.self),
            idempotencyKey: try c[10].decode(String?.self), requestHash: try c[11].decode(String?.self),
            createdAtMs: try c[16].decode(Int64.self))
        let (rawState, rawPhase) = (try c[2].decode(String.self), try c[12].decode(String.self))
        guard let state = NotificationState(rawValue: rawState) else {
            throw PushStoreError.corruptValue(table: "notifications", column: "state", value: rawState)
        }
        guard let phase = NotificationPhase(rawValue: rawPhase) else {
            throw PushStoreError.corruptValue(table: "notifications", column: "phase", value: rawPhase)
        }
        return NotificationRecord(
            id: try c[0].decode(Int64.self), request: request, state: state, phase: phase, cursor: try c[13].decode(String?.self),
            plannedUsers: try c[14].decode(Int.self), nextRunAtMs: try c[15].decode(Int64.self),
            finishedAtMs: try c[17].decode(Int64?.self))
    }
}
