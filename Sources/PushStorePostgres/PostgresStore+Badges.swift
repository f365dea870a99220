import Foundation
import Logging
import PostgresNIO
import PushCore
import StoreContract

/// Badge sync (`BadgeStore`): the decisions are `BadgeSyncAction`'s, this is their SQL. Each
/// user's `badges` row is locked for the transaction, so two relays taking read events of one
/// user apply them one after the other.
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
                let (last, pushWaiting) = try await Self.lockBadge(app: app, user: user, connection, logger: logger)
                var action = BadgeSyncAction.decide(
                    last: last, update: update, pushWaiting: pushWaiting, nowMs: nowMs, settings: settings)
                if case .coalesce = action,
                    try await connection.value(
                        """
                        WITH updated AS (
                            UPDATE delivery_payloads SET payload = \(BadgePayload.data(badge: update.badge)) WHERE delivery_id IN (
                                SELECT id FROM deliveries WHERE app_id = \(app) AND message_id = 0 AND user_id = \(user) AND state = 'pending'
                            ) RETURNING 1
                        )
                        SELECT count(*) FROM updated
                        """, as: Int64.self, logger: logger) == 0
                {
                    // Claimed since the lock's read: the lock holds the badges row, not the deliveries.
                    action = BadgeSyncAction.decide(last: last, update: update, pushWaiting: false, nowMs: nowMs, settings: settings)
                }
                var queued = 0
                if case .queue(let queueing) = action {
                    queued = try await Self.queueBadgePushes(
                        queueing, to: settings.provider, app: app, user: user, nowMs: nowMs, connection, logger: logger)
                }
                result.count(action, queued: queued)
                guard let record = action.record(queued: queued) else { continue }
                try await connection.run(
                    """
                    UPDATE badges SET badge = \(Int64(record.badge)), read_at_ms = \(record.readAtMs), queued_at_ms = \(record.queuedAtMs)
                    WHERE app_id = \(app) AND user_id = \(user)
                    """, logger: logger)
            }
            return result
        }
    }

    /// The user's badge state, its row locked for the transaction (created first, so there is one
    /// to lock), and whether a badge push of theirs still waits.
    private static func lockBadge(app: String, user: String, _ connection: PostgresConnection, logger: Logger) async throws
        -> (BadgeState?, Bool)
    {
        try await connection.run(
            """
            INSERT INTO badges (app_id, user_id, badge, read_at_ms, queued_at_ms)
            VALUES (\(app), \(user), -1, \(Int64.min), \(Int64.min)) ON CONFLICT DO NOTHING
            """, logger: logger)
        let rows: [(Int64, Int64, Int64, Bool)] = try await connection.rows(
            """
            SELECT badge, read_at_ms, queued_at_ms, EXISTS (
                SELECT 1 FROM deliveries WHERE app_id = \(app) AND message_id = 0 AND user_id = \(user) AND state = 'pending'
            ) FROM badges WHERE app_id = \(app) AND user_id = \(user) FOR UPDATE
            """, logger: logger
        ) { row in try row.decode((Int64, Int64, Int64, Bool).self) }
        guard let (badge, readAt, queuedAt, waiting) = rows.first else { return (nil, false) }
        // A badge of -1 is the row just created to lock: no state yet (counts are never negative).
        return (badge < 0 ? nil : BadgeState(badge: Int(badge), readAtMs: readAt, queuedAtMs: queuedAt), waiting)
    }

    /// One background push per token of `user` of `provider`, oldest token first, in one
    /// statement. Returns how many.
    private static func queueBadgePushes(
        _ queueing: BadgeQueueing, to provider: PushProvider?, app: String, user: String, nowMs: Int64,
        _ connection: PostgresConnection, logger: Logger
    ) async throws -> Int {
        guard let provider else { return 0 }
        let queued = try await connection.value(
            """
            WITH tokens AS (
                SELECT nextval(pg_get_serial_sequence('deliveries', 'id')) AS id, token, registered_at, tid FROM (
                    SELECT token, registered_at, id AS tid FROM device_tokens
                    WHERE app_id = \(app) AND user_id = \(user) AND provider = \(provider.rawValue) ORDER BY registered_at, id
                ) t
            ), queued AS (
                INSERT INTO deliveries (id, app_id, message_id, user_id, device_token, apns_id, provider, push_type, priority,
                    expires_at_ms, state, attempts, next_attempt_at_ms, created_at_ms, updated_at_ms)
                SELECT id, \(app), 0, \(user), token, gen_random_uuid()::text, \(provider.rawValue), \(BadgePayload.pushType),
                    \(BadgePayload.priority), \(queueing.expiresAtMs), 'pending', 0, \(queueing.dueAtMs), \(nowMs), \(nowMs)
                FROM tokens
            ), stored AS (
                INSERT INTO delivery_payloads (delivery_id, payload) SELECT id, \(BadgePayload.data(badge: queueing.badge)) FROM tokens
            )
            SELECT count(*) FROM tokens
            """, as: Int64.self, logger: logger)
        return Int(queued ?? 0)
    }
}
