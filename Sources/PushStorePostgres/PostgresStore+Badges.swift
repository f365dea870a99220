import Foundation
import PostgresNIO
import PushCore
import PushStore

/// Badge sync, as `SQLiteStore` does it. Each user's `badges` row is locked for the
/// transaction, so two relays taking read events of one user apply them one after the other.
extension PostgresStore {
    public func syncBadges(app: String, updates: [BadgeUpdate], nowMs: Int64, settings: BadgePushSettings) async throws
        -> BadgeSyncResult
    {
        guard !updates.isEmpty else { return BadgeSyncResult() }
        let logger = logger
        return try await transaction(.write) { connection in
            var result = BadgeSyncResult()
            // In key order, so two relays locking several users' rows wait instead of deadlocking.
            for update in updates.sorted(by: { $0.userID < $1.userID }) {
                let user = update.userID
                try await connection.run(
                    """
                    INSERT INTO badges (app_id, user_id, badge, read_at_ms, queued_at_ms)
                    VALUES (\(app), \(user), -1, \(Int64.min), \(Int64.min)) ON CONFLICT DO NOTHING
                    """, logger: logger)
                let rows: [(Int64, Int64, Int64)] = try await connection.rows(
                    "SELECT badge, read_at_ms, queued_at_ms FROM badges WHERE app_id = \(app) AND user_id = \(user) FOR UPDATE",
                    logger: logger
                ) { row in try row.decode((Int64, Int64, Int64).self) }
                let (lastBadge, lastRead, lastQueued) = rows.first ?? (Int64(-1), Int64.min, Int64.min)
                guard update.readAtMs > lastRead else {
                    result.stale += 1
                    continue
                }
                var queuedAt = lastQueued
                let payload = BadgePayload.data(badge: update.badge)
                if lastBadge == Int64(update.badge) {
                    result.unchanged += 1
                } else if let coalesced = try await connection.value(
                    """
                    WITH waiting AS (
                        SELECT id FROM deliveries WHERE app_id = \(app) AND message_id = 0 AND user_id = \(user) AND state = 'pending'
                    ), updated AS (
                        UPDATE delivery_payloads SET payload = \(payload) WHERE delivery_id IN (SELECT id FROM waiting) RETURNING 1
                    )
                    SELECT count(*) FROM updated
                    """, as: Int64.self, logger: logger), coalesced > 0
                {
                    result.coalesced += 1
                } else {
                    let due = max(nowMs, WallClock.adding(settings.intervalMs, to: lastQueued))
                    let expires = WallClock.adding(settings.timeToLiveMs, to: due)
                    let queued =
                        try await connection.value(
                            """
                            WITH tokens AS (
                                SELECT nextval(pg_get_serial_sequence('deliveries', 'id')) AS id, token, registered_at, tid FROM (
                                    SELECT token, registered_at, id AS tid FROM device_tokens
                                    WHERE app_id = \(app) AND user_id = \(user) AND provider = 'apns' ORDER BY registered_at, id
                                ) t
                            ), queued AS (
                                INSERT INTO deliveries (id, app_id, message_id, user_id, device_token, apns_id, push_type, priority,
                                    expires_at_ms, state, attempts, next_attempt_at_ms, created_at_ms, updated_at_ms)
                                SELECT id, \(app), 0, \(user), token, gen_random_uuid()::text, \(BadgePayload.pushType),
                                    \(BadgePayload.priority), \(expires), 'pending', 0, \(due), \(nowMs), \(nowMs)
                                FROM tokens
                            ), stored AS (
                                INSERT INTO delivery_payloads (delivery_id, payload) SELECT id, \(payload) FROM tokens
                            )
                            SELECT count(*) FROM tokens
                            """, as: Int64.self, logger: logger) ?? 0
                    if queued == 0 {
                        result.noTokens += 1
                    } else {
                        result.queued += Int(queued)
                        queuedAt = due
                    }
                }
                try await connection.run(
                    """
                    UPDATE badges SET badge = \(Int64(update.badge)), read_at_ms = \(update.readAtMs), queued_at_ms = \(queuedAt)
                    WHERE app_id = \(app) AND user_id = \(user)
                    """, logger: logger)
            }
            return result
        }
    }
}
