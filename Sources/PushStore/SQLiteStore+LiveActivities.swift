import Foundation
import GRDB
import PushCore
import StoreContract
import UUIDText

extension SQLiteStore {
    public func registerStartToken(app: String, user: String, attributesType: String, token: String, nowMs: Int64) async throws {
        let limit = configuration.maximumTokensPerUser
        // The user is created as a device token's registration creates them: erasure finds them.
        try await registryWrite(app: app) { db in
            try Self.ensureUser(db, app: app, user: user, now: nowMs)
            try db.execute(sql: "DELETE FROM live_activity_start_tokens WHERE app_id = ? AND token = ?", arguments: [app, token])
            try db.execute(
                sql: """
                    INSERT INTO live_activity_start_tokens (app_id, token, user_id, attributes_type, registered_at)
                    VALUES (?, ?, ?, ?, ?)
                    """, arguments: [app, token, user, attributesType, nowMs])
            try db.execute(
                sql: """
                    DELETE FROM live_activity_start_tokens WHERE app_id = ?1 AND user_id = ?2 AND token IN (
                        SELECT token FROM live_activity_start_tokens WHERE app_id = ?1 AND user_id = ?2
                        ORDER BY registered_at DESC, rowid DESC LIMIT -1 OFFSET ?3)
                    """, arguments: [app, user, limit])
        }
    }

    @discardableResult
    public func removeStartToken(app: String, user: String, token: String) async throws -> Bool {
        try await pool.write { db in
            try db.execute(
                sql: "DELETE FROM live_activity_start_tokens WHERE app_id = ? AND user_id = ? AND token = ?", arguments: [app, user, token])
            return db.changesCount > 0
        }
    }

    public func startTokens(app: String, user: String) async throws -> [(attributesType: String, token: String)] {
        try await pool.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT attributes_type, token FROM live_activity_start_tokens WHERE app_id = ? AND user_id = ?
                    ORDER BY registered_at, rowid
                    """, arguments: [app, user]
            ).map { (attributesType: $0[0], token: $0[1]) }
        }
    }

    public func registerActivityToken(app: String, user: String, activityID: String, token: String, nowMs: Int64) async throws
        -> LiveActivityRecord?
    {
        try await registryWrite(app: app) { db in
            if let existing = try Self.activity(db, app: app, id: activityID), !existing.userID.sameBytes(as: user) { return nil }
            try Self.ensureUser(db, app: app, user: user, now: nowMs)
            try db.execute(
                sql: """
                    INSERT INTO live_activities (app_id, activity_id, user_id, update_token, token_registered_at, state,
                        created_at_ms, updated_at_ms)
                    VALUES (?1, ?2, ?3, ?4, ?5, 'started', ?5, ?5)
                    ON CONFLICT (app_id, activity_id) DO UPDATE SET update_token = ?4, token_registered_at = ?5, updated_at_ms = ?5
                    """, arguments: [app, activityID, user, token, nowMs])
            try db.execute(
                sql: """
                    DELETE FROM live_activities WHERE app_id = ?1 AND user_id = ?2 AND activity_id IN (
                        SELECT activity_id FROM live_activities WHERE app_id = ?1 AND user_id = ?2
                        ORDER BY created_at_ms DESC, rowid DESC LIMIT -1 OFFSET ?3)
                    """, arguments: [app, user, LiveActivityRecord.maximumPerUser])
            return try Self.activity(db, app: app, id: activityID)
        }
    }

    public func activity(app: String, id: String) async throws -> LiveActivityRecord? {
        try await pool.read { db in try Self.activity(db, app: app, id: id) }
    }

    public func activities(app: String, user: String) async throws -> [LiveActivityRecord] {
        try await pool.read { db in
            try Row.fetchAll(
                db, sql: "SELECT * FROM live_activities WHERE app_id = ? AND user_id = ? ORDER BY created_at_ms DESC, rowid DESC",
                arguments: [app, user]
            ).map(Self.activity(row:))
        }
    }

    public func queueLiveActivityPush(_ push: LiveActivityPush) async throws -> LiveActivityQueueResult {
        try await pool.write { db in
            let existing = try Self.activity(db, app: push.appID, id: push.activityID)
            let tokens: [String]
            switch LiveActivityQueueRule.check(push, existing: existing) {
            case .refuse(let result): return result
            case .toStartTokens(let user, let type):
                tokens = try String.fetchAll(
                    db,
                    sql: """
                        SELECT token FROM live_activity_start_tokens WHERE app_id = ? AND user_id = ? AND attributes_type = ?
                        ORDER BY registered_at, rowid
                        """, arguments: [push.appID, user, type])
            case .toUpdateToken(let token):
                tokens = [token]
            }
            guard !tokens.isEmpty else { return .noToken }
            for token in tokens { try Self.queue(push, to: token, user: push.userID ?? existing?.userID ?? "", db) }
            let record = LiveActivityQueueRule.recorded(push, existing: existing)
            try Self.save(record, db)
            guard record.removeAtMs.map({ $0 <= push.atMs }) != true else {
                try db.execute(
                    sql: "DELETE FROM live_activities WHERE app_id = ? AND activity_id = ?", arguments: [push.appID, push.activityID])
                return .queued(nil, pushes: tokens.count)
            }
            return .queued(try Self.activity(db, app: push.appID, id: push.activityID), pushes: tokens.count)
        }
    }

    @discardableResult
    public func pruneLiveActivities(nowMs: Int64) async throws -> Int {
        try await pool.write { db in
            try db.execute(sql: "DELETE FROM live_activities WHERE remove_at_ms <= ?", arguments: [nowMs])
            return db.changesCount
        }
    }

    /// One push of `push` to `token`, pending at once (message id 0, like a badge push).
    private static func queue(_ push: LiveActivityPush, to token: String, user: String, _ db: Database) throws {
        try queueStandalonePush(
            app: push.appID, user: user, token: token, provider: push.provider, pushType: push.pushType, priority: push.priority,
            expiresAtMs: push.expiresAtMs, dueAtMs: push.atMs, nowMs: push.atMs, payload: push.payload, db)
    }

    private static func save(_ record: LiveActivityRecord, _ db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO live_activities (app_id, activity_id, user_id, attributes_type, update_token, state, high_priority_pushes,
                    created_at_ms, updated_at_ms, ended_at_ms, remove_at_ms)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (app_id, activity_id) DO UPDATE SET attributes_type = excluded.attributes_type, state = excluded.state,
                    high_priority_pushes = excluded.high_priority_pushes, updated_at_ms = excluded.updated_at_ms,
                    ended_at_ms = excluded.ended_at_ms, remove_at_ms = excluded.remove_at_ms
                """,
            arguments: [
                record.appID, record.activityID, record.userID, record.attributesType, record.updateToken, record.state.rawValue,
                record.highPriorityPushes, record.createdAtMs, record.updatedAtMs, record.endedAtMs, record.removeAtMs,
            ])
    }

    static func activity(_ db: Database, app: String, id: String) throws -> LiveActivityRecord? {
        try Row.fetchOne(db, sql: "SELECT * FROM live_activities WHERE app_id = ? AND activity_id = ?", arguments: [app, id])
            .map(activity(row:))
    }

    private static func activity(row: Row) -> LiveActivityRecord {
        LiveActivityRecord(
            appID: row["app_id"], activityID: row["activity_id"], userID: row["user_id"], attributesType: row["attributes_type"],
            updateToken: row["update_token"], state: LiveActivityRecord.State(rawValue: row["state"]) ?? .started,
            highPriorityPushes: row["high_priority_pushes"], createdAtMs: row["created_at_ms"], updatedAtMs: row["updated_at_ms"],
            endedAtMs: row["ended_at_ms"], removeAtMs: row["remove_at_ms"])
    }
}
