import Foundation
import GRDB
import PushCore
import StoreContract

extension SQLiteStore {
    public func createNotification(_ n: NewNotification) async throws -> NotificationCreation {
        try await pool.write { db in
            if let key = n.idempotencyKey,
                let first = try Row.fetchOne(
                    db, sql: "SELECT * FROM notifications WHERE app_id = ? AND idempotency_key = ?", arguments: [n.appID, key])
            {
                let record = try Self.notification(row: first)
                return record.request.requestHash == n.requestHash ? .repeated(record) : .keyReused(record)
            }
            let audience = n.audience.stored
            let state = n.sendAtMs > n.createdAtMs ? NotificationState.scheduled : .sending
            let phase: NotificationPhase = n.localMinute == nil ? .audience : .staging
            try db.execute(
                sql: """
                    INSERT INTO notifications (app_id, state, audience_kind, audience, content, collapse_key, send_at_ms,
                        local_minute, pushes_per_minute, idempotency_key, request_hash, phase, next_run_at_ms, created_at_ms)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    n.appID, state.rawValue, audience.kind, audience.text, n.content, n.collapseKey, n.sendAtMs, n.localMinute,
                    n.pushesPerMinute, n.idempotencyKey, n.requestHash, phase.rawValue, n.sendAtMs, n.createdAtMs,
                ])
            let row = try Row.fetchOne(db, sql: "SELECT * FROM notifications WHERE id = ?", arguments: [db.lastInsertedRowID])
            return .created(try Self.notification(row: row!))
        }
    }

    public func notification(app: String, id: Int64) async throws -> NotificationRecord? {
        try await pool.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM notifications WHERE app_id = ? AND id = ?", arguments: [app, id])
                .map(Self.notification(row:))
        }
    }

    public func notifications(app: String, beforeID: Int64?, limit: Int, openOnly: Bool) async throws -> [NotificationRecord] {
        try await pool.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT * FROM notifications WHERE app_id = ? AND id < ?
                        AND (? = 0 OR state IN ('scheduled', 'sending'))
                    ORDER BY id DESC LIMIT ?
                    """, arguments: [app, beforeID ?? Int64.max, openOnly ? 1 : 0, limit]
            ).map(Self.notification(row:))
        }
    }

    public func cancelNotification(app: String, id: Int64, nowMs: Int64) async throws -> NotificationRecord? {
        try await pool.write { db in
            try db.execute(
                sql: """
                    UPDATE notifications SET state = 'cancelled', finished_at_ms = ?, lease_owner = NULL
                    WHERE app_id = ? AND id = ? AND state IN ('scheduled', 'sending')
                    """, arguments: [nowMs, app, id])
            if db.changesCount > 0 {
                try db.execute(sql: "DELETE FROM notification_recipients WHERE notification_id = ?", arguments: [id])
                try db.execute(
                    sql: """
                        UPDATE deliveries SET state = 'cancelled', updated_at_ms = ?
                        WHERE app_id = ? AND message_id = ? AND state = 'pending'
                        """, arguments: [nowMs, app, -id])
            }
            return try Row.fetchOne(db, sql: "SELECT * FROM notifications WHERE app_id = ? AND id = ?", arguments: [app, id])
                .map(Self.notification(row:))
        }
    }

    public func claimNotification(owner: String, nowMs: Int64, leaseMs: Int64) async throws -> NotificationRecord? {
        try await pool.write { db in
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT * FROM notifications INDEXED BY notifications_open
                        WHERE state IN ('scheduled', 'sending') AND next_run_at_ms <= ? AND (lease_until_ms < ? OR lease_owner = ?)
                        ORDER BY next_run_at_ms LIMIT 1
                        """, arguments: [nowMs, nowMs, owner])
            else { return nil }
            var record = try Self.notification(row: row)
            try db.execute(
                sql: "UPDATE notifications SET state = 'sending', lease_owner = ?, lease_until_ms = ? WHERE id = ?",
                arguments: [owner, nowMs + leaseMs, record.id])
            record.state = .sending
            return record
        }
    }

    public func nextNotificationRunAtMs() async throws -> Int64? {
        try await pool.read { db in
            try Int64.fetchOne(
                db, sql: "SELECT MIN(next_run_at_ms) FROM notifications WHERE state IN ('scheduled', 'sending')")
        }
    }

    public func topicSubscribers(app: String, topic: String, after cursor: String?, limit: Int) async throws -> [String] {
        try await pool.read { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT user_id FROM topic_subscriptions WHERE app_id = ? AND topic = ? AND user_id > ?
                    ORDER BY user_id LIMIT ?
                    """, arguments: [app, topic, cursor ?? "", limit])
        }
    }

    public func dueRecipients(notificationID: Int64, nowMs: Int64, limit: Int) async throws -> [NotedRecipient] {
        try await pool.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT user_id, due_at_ms FROM notification_recipients WHERE notification_id = ? AND due_at_ms <= ?
                    ORDER BY due_at_ms, user_id LIMIT ?
                    """, arguments: [notificationID, nowMs, limit]
            ).map { NotedRecipient(userID: $0[0], dueAtMs: $0[1]) }
        }
    }

    public func nextRecipientDueAtMs(notificationID: Int64) async throws -> Int64? {
        try await pool.read { db in
            try Int64.fetchOne(
                db, sql: "SELECT MIN(due_at_ms) FROM notification_recipients WHERE notification_id = ?", arguments: [notificationID])
        }
    }

    /// Without an fsync of its own (`queueWrite`): a batch lost in a power failure is lost with its
    /// cursor, and planned again.
    public func commitNotificationBatch(_ batch: NotificationBatch) async throws -> Bool {
        try await queueWrite { db in
            try db.execute(
                sql: """
                    UPDATE notifications SET phase = ?, cursor = ?, planned_users = planned_users + ?, next_run_at_ms = ?,
                        lease_until_ms = ?, state = ?, finished_at_ms = ?
                    WHERE id = ? AND lease_owner = ? AND state = 'sending'
                    """,
                arguments: [
                    batch.phase.rawValue, batch.cursor, batch.plannedCount, batch.nextRunAtMs, batch.nowMs + batch.leaseMs,
                    batch.finished ? NotificationState.done.rawValue : NotificationState.sending.rawValue,
                    batch.finished ? batch.nowMs : nil, batch.notificationID, batch.owner,
                ])
            guard db.changesCount > 0 else { return false }
            let note = try db.cachedStatement(
                sql: """
                    INSERT INTO notification_recipients (notification_id, due_at_ms, user_id, app_id) VALUES (?, ?, ?, ?)
                    ON CONFLICT DO NOTHING
                    """)
            for noted in batch.noted {
                try note.execute(arguments: [batch.notificationID, noted.dueAtMs, noted.userID, batch.appID])
            }
            let drop = try db.cachedStatement(
                sql: "DELETE FROM notification_recipients WHERE notification_id = ? AND due_at_ms = ? AND user_id = ?")
            for planned in batch.planned { try drop.execute(arguments: [batch.notificationID, planned.dueAtMs, planned.userID]) }
            let event = AcceptedEvent(
                appID: batch.appID, messageID: batch.messageID, channelURL: "", acceptedAtMs: batch.nowMs,
                decisions: batch.decisions, deliveries: batch.deliveries)
            _ = try Self.recordDecisionsAndDeliveries(of: event, db)
            return true
        }
    }

    public func notificationCounts(app: String, id: Int64) async throws -> NotificationCounts {
        try await pool.read { db in
            var counts = NotificationCounts()
            for row in try Row.fetchAll(
                db,
                sql: """
                    SELECT state, COUNT(*), COUNT(acknowledged_at_ms), COUNT(clicked_at_ms) FROM deliveries
                    WHERE app_id = ? AND message_id = ? GROUP BY state
                    """, arguments: [app, -id])
            {
                counts.deliveries[row[0]] = row[1]
                counts.acknowledged += row[2] as Int
                counts.opened += row[3] as Int
            }
            counts.pushedUsers =
                try Int.fetchOne(
                    db, sql: "SELECT COUNT(DISTINCT user_id) FROM deliveries WHERE app_id = ? AND message_id = ?",
                    arguments: [app, -id]) ?? 0
            for row in try Row.fetchAll(
                db, sql: "SELECT decision, COUNT(*) FROM decisions WHERE app_id = ? AND message_id = ? GROUP BY decision",
                arguments: [app, -id])
            {
                counts.skipped[row[0]] = row[1]
            }
            return counts
        }
    }

    public func subscribe(app: String, topic: String, users: [String], nowMs: Int64) async throws -> Int {
        try await pool.write { db in
            let insert = try db.cachedStatement(
                sql: "INSERT INTO topic_subscriptions (app_id, topic, user_id, created_at_ms) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING")
            var added = 0
            for user in users {
                try insert.execute(arguments: [app, topic, user, nowMs])
                added += db.changesCount
            }
            return added
        }
    }

    public func unsubscribe(app: String, topic: String, users: [String]) async throws -> Int {
        try await pool.write { db in
            let delete = try db.cachedStatement(sql: "DELETE FROM topic_subscriptions WHERE app_id = ? AND topic = ? AND user_id = ?")
            var removed = 0
            for user in users {
                try delete.execute(arguments: [app, topic, user])
                removed += db.changesCount
            }
            return removed
        }
    }

    public func topics(app: String, user: String) async throws -> [String] {
        try await pool.read { db in
            try String.fetchAll(
                db, sql: "SELECT topic FROM topic_subscriptions WHERE app_id = ? AND user_id = ? ORDER BY topic", arguments: [app, user])
        }
    }

    public func subscriberCount(app: String, topic: String) async throws -> Int {
        try await pool.read { db in
            try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM topic_subscriptions WHERE app_id = ? AND topic = ?", arguments: [app, topic]) ?? 0
        }
    }

    @discardableResult
    public func pruneNotifications(finishedBeforeMs cutoffMs: Int64) async throws -> Int {
        try await queueWrite { db in
            try db.execute(
                sql: "DELETE FROM notifications WHERE state IN ('done', 'cancelled') AND finished_at_ms < ?", arguments: [cutoffMs])
            return db.changesCount
        }
    }

    static func notification(row: Row) throws -> NotificationRecord {
        let request = NewNotification(
            appID: row["app_id"], audience: try NotificationAudience(kind: row["audience_kind"], text: row["audience"]),
            content: row["content"], collapseKey: row["collapse_key"], sendAtMs: row["send_at_ms"], localMinute: row["local_minute"],
            pushesPerMinute: row["pushes_per_minute"], idempotencyKey: row["idempotency_key"], requestHash: row["request_hash"],
            createdAtMs: row["created_at_ms"])
        let state: String = row["state"]
        let phase: String = row["phase"]
        return NotificationRecord(
            id: row["id"], request: request,
            state: try NotificationState(rawValue: state)
                .orThrow(PushStoreError.corruptValue(table: "notifications", column: "state", value: state)),
            phase: try NotificationPhase(rawValue: phase)
                .orThrow(PushStoreError.corruptValue(table: "notifications", column: "phase", value: phase)),
            cursor: row["cursor"], plannedUsers: row["planned_users"], nextRunAtMs: row["next_run_at_ms"],
            finishedAtMs: row["finished_at_ms"])
    }
}

extension Optional {
    fileprivate func orThrow(_ error: some Error) throws -> Wrapped {
        guard let self else { throw error }
        return self
    }
}
