import Foundation
import GRDB
import PushCore
import UUIDText

extension SQLiteStore {
    /// One push of no message (message id 0): a badge push, a Live Activity's, a broadcast;
    /// pending from `dueAtMs`, with its payload in a row of its own.
    static func queueStandalonePush(
        app: String, user: String, token: String, provider: PushProvider, pushType: String, priority: Int, expiresAtMs: Int64,
        dueAtMs: Int64, nowMs: Int64, payload: Data, _ db: Database
    ) throws {
        try db.execute(
            sql: """
                INSERT INTO deliveries (app_id, message_id, user_id, device_token, push_id, provider, push_type, priority,
                    expires_at_ms, state, attempts, next_attempt_at_ms, created_at_ms, updated_at_ms)
                VALUES (?, 0, ?, ?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?, ?)
                """,
            arguments: [
                app, user, token, UUIDText.lowercase(UUID()), provider.rawValue, pushType, priority, expiresAtMs, dueAtMs, nowMs,
                nowMs,
            ])
        try db.execute(
            sql: "INSERT INTO delivery_payloads (delivery_id, payload) VALUES (?, ?)", arguments: [db.lastInsertedRowID, payload])
    }
}
