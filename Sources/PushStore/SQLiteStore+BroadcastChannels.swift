import Foundation
import GRDB
import StoreContract
import UUIDText

extension SQLiteStore {
    public func saveChannel(_ channel: LiveActivityChannel) async throws {
        try await pool.write { db in
            try db.execute(
                sql: """
                    INSERT INTO broadcast_channels (app_id, channel_id, name, storage_policy, created_at_ms) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT (app_id, channel_id) DO UPDATE SET name = excluded.name, storage_policy = excluded.storage_policy
                    """,
                arguments: [channel.appID, channel.channelID, channel.name, channel.storagePolicy, channel.createdAtMs])
        }
    }

    public func channels(app: String) async throws -> [LiveActivityChannel] {
        try await pool.read { db in
            try Row.fetchAll(
                db, sql: "SELECT * FROM broadcast_channels WHERE app_id = ? ORDER BY created_at_ms, channel_id", arguments: [app]
            ).map(Self.channel(row:))
        }
    }

    public func channel(app: String, id: String) async throws -> LiveActivityChannel? {
        try await pool.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM broadcast_channels WHERE app_id = ? AND channel_id = ?", arguments: [app, id])
                .map(Self.channel(row:))
        }
    }

    @discardableResult
    public func removeChannel(app: String, id: String) async throws -> Bool {
        try await pool.write { db in
            try db.execute(sql: "DELETE FROM broadcast_channels WHERE app_id = ? AND channel_id = ?", arguments: [app, id])
            return db.changesCount > 0
        }
    }

    public func queueBroadcast(_ push: LiveActivityPush) async throws -> Bool {
        try await pool.write { db in
            guard
                try Bool.fetchOne(
                    db, sql: "SELECT 1 FROM broadcast_channels WHERE app_id = ? AND channel_id = ?",
                    arguments: [push.appID, push.activityID]) != nil
            else { return false }
            // No user: a broadcast reaches whoever subscribed to the channel.
            try Self.queueStandalonePush(
                app: push.appID, user: "", token: push.activityID, provider: push.provider, pushType: push.pushType,
                priority: push.priority, expiresAtMs: push.expiresAtMs, dueAtMs: push.atMs, nowMs: push.atMs, payload: push.payload,
                db)
            return true
        }
    }

    private static func channel(row: Row) -> LiveActivityChannel {
        LiveActivityChannel(
            appID: row["app_id"], channelID: row["channel_id"], name: row["name"], storagePolicy: row["storage_policy"],
            createdAtMs: row["created_at_ms"])
    }
}
