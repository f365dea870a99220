import Foundation
import GRDB
import PushCore
import StoreContract
import UUIDText

/// Badge sync: background pushes carrying a reader's new total unread (`BadgeStore`). The
/// decisions are `BadgeSyncAction`'s, this is their SQL.
extension SQLiteStore {
    public func syncBadges(app: String, updates: [BadgeUpdate], nowMs: Int64, settings: BadgePushSettings) async throws
        -> BadgeSyncResult
    {
        guard !updates.isEmpty else { return BadgeSyncResult() }
        return try await pool.write { db in
            var result = BadgeSyncResult()
            for update in updates {
                let last = try Row.fetchOne(
                    db, sql: "SELECT badge, read_at_ms, queued_at_ms FROM badges WHERE app_id = ? AND user_id = ?",
                    arguments: [app, update.userID]
                ).map { BadgeState(badge: $0[0], readAtMs: $0[1], queuedAtMs: $0[2]) }
                let waiting = try Int64.fetchAll(
                    db,
                    sql: "SELECT id FROM deliveries WHERE app_id = ? AND message_id = 0 AND user_id = ? AND state = 'pending'",
                    arguments: [app, update.userID])
                let action = BadgeSyncAction.decide(
                    last: last, update: update, pushWaiting: !waiting.isEmpty, nowMs: nowMs, settings: settings)
                var queued = 0
                switch action {
                case .stale, .unchanged: break
                case .coalesce:
                    try db.execute(
                        sql:
                            "UPDATE delivery_payloads SET payload = ? WHERE delivery_id IN (\(waiting.map(String.init).joined(separator: ",")))",
                        arguments: [BadgePayload.data(badge: update.badge)])
                case .queue(let queueing):
                    queued = try Self.queueBadgePushes(queueing, to: settings.provider, app: app, user: update.userID, nowMs: nowMs, db)
                }
                result.count(action, queued: queued)
                guard let record = action.record(queued: queued) else { continue }
                try db.execute(
                    sql: """
                        INSERT INTO badges (app_id, user_id, badge, read_at_ms, queued_at_ms) VALUES (?, ?, ?, ?, ?)
                        ON CONFLICT (app_id, user_id) DO UPDATE SET badge = excluded.badge, read_at_ms = excluded.read_at_ms,
                            queued_at_ms = excluded.queued_at_ms
                        """, arguments: [app, update.userID, record.badge, record.readAtMs, record.queuedAtMs])
            }
            return result
        }
    }

    /// One background push per token of `user` of `provider`, oldest token first. Returns how many.
    private static func queueBadgePushes(
        _ queueing: BadgeQueueing, to provider: PushProvider?, app: String, user: String, nowMs: Int64, _ db: Database
    ) throws -> Int {
        guard let provider else { return 0 }
        let tokens = try String.fetchAll(
            db,
            sql: "SELECT token FROM device_tokens WHERE app_id = ? AND user_id = ? AND provider = ? ORDER BY registered_at, id",
            arguments: [app, user, provider.rawValue])
        let payload = BadgePayload.data(badge: queueing.badge)
        for token in tokens {
            try queueStandalonePush(
                app: app, user: user, token: token, provider: provider, pushType: BadgePayload.pushType,
                priority: BadgePayload.priority, expiresAtMs: queueing.expiresAtMs, dueAtMs: queueing.dueAtMs, nowMs: nowMs,
                payload: payload, db)
        }
        return tokens.count
    }

    /// A message push told its recipients' devices their counts: a badge push still waiting
    /// would set an older one, so it is dropped (failed, `Superseded`), and the count becomes the
    /// one to compare the next read with. Reads before the message are stale from now on.
    static func recordBadges(_ badges: BadgeSnapshot, app: String, nowMs: Int64, _ db: Database) throws {
        // In the webhook's commit, per pushed member: prepared once per connection and bound by
        // position, like the commit's other statements (`RawStatement`).
        let supersede = try db.cachedStatement(
            sql: """
                UPDATE deliveries SET state = 'failed', last_reason = 'Superseded', updated_at_ms = ?
                WHERE app_id = ? AND message_id = 0 AND user_id = ? AND state = 'pending'
                """)
        let record = try db.cachedStatement(
            sql: """
                INSERT INTO badges (app_id, user_id, badge, read_at_ms, queued_at_ms) VALUES (?, ?, ?, ?, 0)
                ON CONFLICT (app_id, user_id) DO UPDATE SET badge = excluded.badge,
                    read_at_ms = max(badges.read_at_ms, excluded.read_at_ms)
                """)
        for (user, count) in badges.counts {
            let drop = RawStatement(supersede)
            drop.bind(1, nowMs)
            drop.bind(2, app)
            drop.bind(3, user.text)
            try drop.run()
            let upsert = RawStatement(record)
            upsert.bind(1, app)
            upsert.bind(2, user.text)
            upsert.bind(3, count)
            upsert.bind(4, badges.atMs)
            try upsert.run()
        }
    }
}
