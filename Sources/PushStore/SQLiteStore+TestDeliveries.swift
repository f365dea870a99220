import Foundation
import GRDB
import StoreContract
import UUIDText

extension SQLiteStore {
    /// Logs a test push as one delivery already final, marked `is_test`, with its payload and
    /// attempt, and removes a dead token by its rule (as `recordOutcomes` does), in one transaction.
    public func recordTestDelivery(_ test: TestDelivery) async throws -> TestDeliveryRecorded {
        let write: @Sendable (Database) throws -> TestDeliveryRecorded = { db in
            let d = test.delivery
            let a = test.attempt
            try db.execute(
                sql: """
                    INSERT INTO deliveries (app_id, message_id, user_id, device_token, push_id, provider, push_type, priority, expires_at_ms,
                        state, attempts, next_attempt_at_ms, last_status, last_reason, sent_at_ms, created_at_ms, updated_at_ms,
                        message_name, is_test)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1)
                    """,
                arguments: [
                    test.appID, TestDelivery.messageID, d.userID, d.deviceToken, UUIDText.lowercase(d.pushID), d.provider.rawValue,
                    d.pushType, d.priority,
                    d.expiresAtMs, test.state.rawValue, a == nil ? 0 : 1, test.createdAtMs, a?.status, a?.reason ?? a?.error,
                    test.state == .sent ? test.atMs : nil, test.createdAtMs, test.atMs, test.providerMessageID,
                ])
            let id = db.lastInsertedRowID
            // As `commitEvents` does for the ids it takes: a packed row left from erased
            // deliveries that had these ids must not claim this one.
            try db.execute(sql: "DELETE FROM packed_payloads WHERE first_delivery_id >= ?", arguments: [id])
            try db.execute(
                sql: "INSERT INTO delivery_payloads (delivery_id, payload, spans) VALUES (?, ?, NULL)", arguments: [id, d.payload])
            // A plain acceptance is the delivery row itself, as `recordOutcomes` leaves it.
            if let a = test.loggedAttempt {
                try db.execute(
                    sql: "INSERT INTO delivery_attempts (delivery_id, at_ms, status, reason, error, push_id) VALUES (?, ?, ?, ?, ?, ?)",
                    arguments: [id, a.atMs, a.status, a.reason, a.error, UUIDText.lowercase(a.pushID)])
            }
            switch test.tokenRemoval {
            case .ifRegisteredBefore(let ms)?:
                try db.execute(
                    sql: "DELETE FROM device_tokens WHERE app_id = ? AND token = ? AND registered_at < ?",
                    arguments: [test.appID, d.deviceToken, ms])
            case .always?:
                try db.execute(sql: "DELETE FROM device_tokens WHERE app_id = ? AND token = ?", arguments: [test.appID, d.deviceToken])
            case nil:
                return TestDeliveryRecorded(deliveryID: id, tokenRemoved: false)
            }
            return TestDeliveryRecorded(deliveryID: id, tokenRemoved: db.changesCount > 0)
        }
        // Removing a token is a registry write of the app: its cached recipients are forgotten.
        return test.tokenRemoval == nil ? try await pool.write(write) : try await registryWrite(app: test.appID, write)
    }
}
