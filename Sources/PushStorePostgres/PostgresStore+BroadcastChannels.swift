import Foundation
import PostgresNIO
import StoreContract

/// Broadcast channels (`BroadcastChannelStore`) in the fleet's database.
extension PostgresStore {
    public func saveChannel(_ channel: LiveActivityChannel) async throws {
        try await withConnection { connection in
            try await connection.run(
                """
                INSERT INTO broadcast_channels (app_id, channel_id, name, storage_policy, created_at_ms)
                VALUES (\(channel.appID), \(channel.channelID), \(channel.name), \(Int64(channel.storagePolicy)), \(channel.createdAtMs))
                ON CONFLICT (app_id, channel_id) DO UPDATE SET name = excluded.name, storage_policy = excluded.storage_policy
                """, logger: logger)
        }
    }

    public func channels(app: String) async throws -> [LiveActivityChannel] {
        try await withConnection { connection in
            try await connection.rows(
                """
                SELECT app_id, channel_id, name, storage_policy, created_at_ms FROM broadcast_channels WHERE app_id = \(app)
                ORDER BY created_at_ms, channel_id
                """, logger: logger, Self.channel(row:))
        }
    }

    public func channel(app: String, id: String) async throws -> LiveActivityChannel? {
        try await withConnection { connection in
            try await connection.rows(
                """
                SELECT app_id, channel_id, name, storage_policy, created_at_ms FROM broadcast_channels
                WHERE app_id = \(app) AND channel_id = \(id)
                """, logger: logger, Self.channel(row:)
            ).first
        }
    }

    @discardableResult
    public func removeChannel(app: String, id: String) async throws -> Bool {
        try await withConnection { connection in
            try await connection.count(
                "DELETE FROM broadcast_channels WHERE app_id = \(app) AND channel_id = \(id) RETURNING 1", logger: logger) > 0
        }
    }

    public func queueBroadcast(_ push: LiveActivityPush) async throws -> Bool {
        try await withConnection { connection in
            try await connection.count(
                """
                WITH queued AS (
                    INSERT INTO deliveries (app_id, message_id, user_id, device_token, apns_id, provider, push_type, priority,
                        expires_at_ms, state, attempts, next_attempt_at_ms, created_at_ms, updated_at_ms)
                    SELECT app_id, 0, '', channel_id, gen_random_uuid()::text, \(push.provider.rawValue), \(push.pushType),
                        \(push.priority), \(push.expiresAtMs), 'pending', 0, \(push.atMs), \(push.atMs), \(push.atMs)
                    FROM broadcast_channels WHERE app_id = \(push.appID) AND channel_id = \(push.activityID)
                    RETURNING id
                )
                INSERT INTO delivery_payloads (delivery_id, payload) SELECT id, \(push.payload) FROM queued RETURNING 1
                """, logger: logger) > 0
        }
    }

    private static func channel(row: PostgresRow) throws -> LiveActivityChannel {
        let (app, id, name, policy, created) = try row.decode((String, String, String?, Int64, Int64).self)
        return LiveActivityChannel(appID: app, channelID: id, name: name, storagePolicy: Int(policy), createdAtMs: created)
    }
}
