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
            try db.execute(
                sql: """
                    INSERT INTO deliveries (app_id, message_id, user_id, device_token, push_id, provider, push_type, priority,
                        expires_at_ms, state, attempts, next_attempt_at_ms, created_at_ms, updated_at_ms)
                    VALUES (?, 0, '', ?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?, ?)
                    """,
                arguments: [
                    push.appID, push.activityID, UUIDText.lowercase(UUID()), push.provider.rawValue, push.pushType, push.priority,
                    push.expiresAtMs, push.atMs, push.atMs, push.atMs,
                ])
            try db.execute(
                sql: "INSERT INTO delivery_payloads (delivery_id, payload) VALUES (?, ?)", arguments: [db.lastInsertedRowID, push.payload])
            return true
        }
    }

    private static func channel(row: Row) -> LiveActivityChannel {
        LiveActivityChannel(
            appID: row["app_id"], channelID: row["channel_id"], name: row["name"], storagePolicy: row["storage_policy"],
            createdAtMs: row["created_at_ms"])
    }
}
