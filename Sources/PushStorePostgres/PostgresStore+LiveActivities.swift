import Foundation
import Logging
import PostgresNIO
import PushCore
import StoreContract

/// Live Activities (`LiveActivityStore`): the decisions are `LiveActivityQueueRule`'s, this is
/// their SQL. An activity's row is locked while its push is queued, so two relays serialise.
extension PostgresStore {
    static let activityColumns = """
        app_id, activity_id, user_id, attributes_type, update_token, state, high_priority_pushes, created_at_ms, updated_at_ms, \
        ended_at_ms, remove_at_ms
        """

    public func registerStartToken(app: String, user: String, attributesType: String, token: String, nowMs: Int64) async throws {
        let limit = Int64(configuration.store.maximumTokensPerUser)
        let logger = logger
        try await transaction(.write) { connection in
            // The user is created as a device token's registration creates them (erasure finds
            // them), and locked, so two registrations evict in turn.
            try await Self.lockAndEnsureUser(connection, app: app, user: user, now: nowMs, logger: logger)
            try await connection.run(
                """
                INSERT INTO live_activity_start_tokens (app_id, token, user_id, attributes_type, registered_at)
                VALUES (\(app), \(token), \(user), \(attributesType), \(nowMs))
                ON CONFLICT (app_id, token) DO UPDATE SET user_id = excluded.user_id, attributes_type = excluded.attributes_type,
                    registered_at = excluded.registered_at
                """, logger: logger)
            try await connection.run(
                """
                DELETE FROM live_activity_start_tokens WHERE app_id = \(app) AND user_id = \(user) AND token IN (
                    SELECT token FROM live_activity_start_tokens WHERE app_id = \(app) AND user_id = \(user)
                    ORDER BY registered_at DESC, token DESC OFFSET \(limit))
                """, logger: logger)
        }
    }

    @discardableResult
    public func removeStartToken(app: String, user: String, token: String) async throws -> Bool {
        try await withConnection { connection in
            try await connection.count(
                """
                DELETE FROM live_activity_start_tokens WHERE app_id = \(app) AND user_id = \(user) AND token = \(token) RETURNING 1
                """, logger: logger) > 0
        }
    }

    public func startTokens(app: String, user: String) async throws -> [(attributesType: String, token: String)] {
        try await withConnection { connection in
            try await connection.rows(
                """
                SELECT attributes_type, token FROM live_activity_start_tokens WHERE app_id = \(app) AND user_id = \(user)
                ORDER BY registered_at, token
                """, logger: logger
            ) { row in
                let (type, token) = try row.decode((String, String).self)
                return (attributesType: type, token: token)
            }
        }
    }

    public func registerActivityToken(app: String, user: String, activityID: String, token: String, nowMs: Int64) async throws
        -> LiveActivityRecord?
    {
        let logger = logger
        return try await transaction(.write) { connection in
            // Refused before anything is written: another user's id creates no user row either.
            if let existing = try await Self.lockActivity(app: app, id: activityID, connection, logger: logger),
                !existing.userID.sameBytes(as: user)
            {
                return nil
            }
            try await Self.lockAndEnsureUser(connection, app: app, user: user, now: nowMs, logger: logger)
            try await connection.run(
                """
                INSERT INTO live_activities (app_id, activity_id, user_id, update_token, token_registered_at, state,
                    created_at_ms, updated_at_ms)
                VALUES (\(app), \(activityID), \(user), \(token), \(nowMs), 'started', \(nowMs), \(nowMs))
                ON CONFLICT (app_id, activity_id) DO UPDATE SET update_token = excluded.update_token,
                    token_registered_at = excluded.token_registered_at, updated_at_ms = excluded.updated_at_ms
                """, logger: logger)
            try await connection.run(
                """
                DELETE FROM live_activities WHERE app_id = \(app) AND user_id = \(user) AND activity_id IN (
                    SELECT activity_id FROM live_activities WHERE app_id = \(app) AND user_id = \(user)
                    ORDER BY created_at_ms DESC, activity_id DESC OFFSET \(Int64(LiveActivityRecord.maximumPerUser)))
                """, logger: logger)
            return try await Self.lockActivity(app: app, id: activityID, connection, logger: logger)
        }
    }

    public func activity(app: String, id: String) async throws -> LiveActivityRecord? {
        try await withConnection { connection in
            try await connection.rows(
                "SELECT \(unescaped: Self.activityColumns) FROM live_activities WHERE app_id = \(app) AND activity_id = \(id)",
                logger: logger, Self.activity(row:)
            ).first
        }
    }

    public func activities(app: String, user: String) async throws -> [LiveActivityRecord] {
        try await withConnection { connection in
            try await connection.rows(
                """
                SELECT \(unescaped: Self.activityColumns) FROM live_activities WHERE app_id = \(app) AND user_id = \(user)
                ORDER BY created_at_ms DESC, activity_id DESC
                """, logger: logger, Self.activity(row:))
        }
    }

    public func queueLiveActivityPush(_ push: LiveActivityPush) async throws -> LiveActivityQueueResult {
        let logger = logger
        return try await transaction(.write) { connection in
            let existing = try await Self.lockActivity(app: push.appID, id: push.activityID, connection, logger: logger)
            let tokens: [String]
            switch LiveActivityQueueRule.check(push, existing: existing) {
            case .refuse(let result): return result
            case .toStartTokens(let user, let type):
                tokens = try await connection.rows(
                    """
                    SELECT token FROM live_activity_start_tokens WHERE app_id = \(push.appID) AND user_id = \(user)
                        AND attributes_type = \(type)
                    ORDER BY registered_at, token
                    """, logger: logger
                ) { try $0.decode(String.self) }
            case .toUpdateToken(let token):
                tokens = [token]
            }
            guard !tokens.isEmpty else { return .noToken }
            try await Self.queue(push, to: tokens, user: push.userID ?? existing?.userID ?? "", connection, logger: logger)
            let record = LiveActivityQueueRule.recorded(push, existing: existing)
            try await Self.save(record, connection, logger: logger)
            guard record.removeAtMs.map({ $0 <= push.atMs }) != true else {
                try await connection.run(
                    "DELETE FROM live_activities WHERE app_id = \(push.appID) AND activity_id = \(push.activityID)", logger: logger)
                return .queued(nil, pushes: tokens.count)
            }
            return .queued(
                try await Self.lockActivity(app: push.appID, id: push.activityID, connection, logger: logger), pushes: tokens.count)
        }
    }

    @discardableResult
    public func pruneLiveActivities(nowMs: Int64) async throws -> Int {
        try await withConnection { connection in
            try await connection.count("DELETE FROM live_activities WHERE remove_at_ms <= \(nowMs) RETURNING 1", logger: logger)
        }
    }

    /// One push of `push` per token, pending at once (message id 0, like a badge push).
    private static func queue(
        _ push: LiveActivityPush, to tokens: [String], user: String, _ connection: PostgresConnection, logger: Logger
    ) async throws {
        try await connection.run(
            """
            WITH tokens AS (
                SELECT nextval(pg_get_serial_sequence('deliveries', 'id')) AS id, token
                FROM unnest(\(PostgresArray.text(tokens))) AS t(token)
            ), queued AS (
                INSERT INTO deliveries (id, app_id, message_id, user_id, device_token, apns_id, provider, push_type, priority,
                    expires_at_ms, state, attempts, next_attempt_at_ms, created_at_ms, updated_at_ms)
                SELECT id, \(push.appID), 0, \(user), token, gen_random_uuid()::text, \(push.provider.rawValue), \(push.pushType),
                    \(push.priority), \(push.expiresAtMs), 'pending', 0, \(push.atMs), \(push.atMs), \(push.atMs)
                FROM tokens
            )
            INSERT INTO delivery_payloads (delivery_id, payload) SELECT id, \(push.payload) FROM tokens
            """, logger: logger)
    }

    private static func save(_ record: LiveActivityRecord, _ connection: PostgresConnection, logger: Logger) async throws {
        try await connection.run(
            """
            INSERT INTO live_activities (app_id, activity_id, user_id, attributes_type, update_token, state, high_priority_pushes,
                created_at_ms, updated_at_ms, ended_at_ms, remove_at_ms)
            VALUES (\(record.appID), \(record.activityID), \(record.userID), \(record.attributesType), \(record.updateToken),
                \(record.state.rawValue), \(Int64(record.highPriorityPushes)), \(record.createdAtMs), \(record.updatedAtMs),
                \(record.endedAtMs), \(record.removeAtMs))
            ON CONFLICT (app_id, activity_id) DO UPDATE SET attributes_type = excluded.attributes_type, state = excluded.state,
                high_priority_pushes = excluded.high_priority_pushes, updated_at_ms = excluded.updated_at_ms,
                ended_at_ms = excluded.ended_at_ms, remove_at_ms = excluded.remove_at_ms
            """, logger: logger)
    }

    private static func lockActivity(app: String, id: String, _ connection: PostgresConnection, logger: Logger) async throws
        -> LiveActivityRecord?
    {
        try await connection.rows(
            """
            SELECT \(unescaped: activityColumns) FROM live_activities WHERE app_id = \(app) AND activity_id = \(id) FOR UPDATE
            """, logger: logger, activity(row:)
        ).first
    }

    private static func activity(row: PostgresRow) throws -> LiveActivityRecord {
        let (app, id, user, type, token, state, high, created, updated, ended, remove) = try row.decode(
            (String, String, String, String?, String?, String, Int64, Int64, Int64, Int64?, Int64?).self)
        return LiveActivityRecord(
            appID: app, activityID: id, userID: user, attributesType: type, updateToken: token,
            state: LiveActivityRecord.State(rawValue: state) ?? .started, highPriorityPushes: Int(high), createdAtMs: created,
            updatedAtMs: updated, endedAtMs: ended, removeAtMs: remove)
    }
}
