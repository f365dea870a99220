import PushCore
import Foundation
import GRDB

extension PushStore {
    /// What happened to message `messageID` for `user`: the decision and each delivery with its
    /// attempts, from one read. Only skips are stored as decisions; deliveries mean "push".
    public func deliveryLog(app: String, messageID: Int64, user: String) async throws -> MessageDeliveryLog {
        try await pool.read { db in
            let decision = try Row.fetchOne(
                db, sql: "SELECT decision, created_at_ms FROM decisions WHERE app_id = ? AND message_id = ? AND user_id = ?",
                arguments: [app, messageID, user])
            let deliveries = try Row.fetchAll(
                db, sql: "SELECT * FROM deliveries WHERE app_id = ? AND message_id = ? AND user_id = ? ORDER BY id",
                arguments: [app, messageID, user]
            ).map(DeliveryRecord.init(row:))
            // Databases written before skips-only decisions also hold 'push' rows; they read the same.
            let stored = (decision?["decision"] as String?).map(PushDecision.init(code:))
            let accepted: Int64? = decision?["created_at_ms"] ?? deliveries.first?.createdAtMs
            return MessageDeliveryLog(
                appID: app, messageID: messageID, userID: user,
                decision: stored ?? (deliveries.isEmpty ? nil : .push), acceptedAtMs: accepted,
                deliveries: try deliveries.map { LoggedDelivery(delivery: $0, attempts: try Self.attempts(db, deliveryID: $0.id)) })
        }
    }

    /// How many of the newest deliveries (of all users) `recentDeliveries` looks through.
    public static let recentDeliveriesScanWindow: Int64 = 200_000

    /// A user's most recent deliveries, newest first, with their attempts: those among the relay's
    /// newest `recentDeliveriesScanWindow` deliveries. There is deliberately no per-user index
    /// (it made every accepted push cost a random page write), so the scan is bounded instead.
    public func recentDeliveries(app: String, user: String, limit: Int) async throws -> [LoggedDelivery] {
        try await pool.read { db in
            let newest = try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM deliveries") ?? 0
            return try Row.fetchAll(
                db,
                sql: """
                    SELECT * FROM deliveries WHERE id > ? AND app_id = ? AND user_id = ?
                    ORDER BY id DESC LIMIT ?
                    """,
                arguments: [newest - Self.recentDeliveriesScanWindow, app, user, max(0, limit)]
            ).map { row in
                let record = try DeliveryRecord(row: row)
                return LoggedDelivery(delivery: record, attempts: try Self.attempts(db, deliveryID: record.id))
            }
        }
    }

    /// The delivery with this id, with its attempts.
    public func delivery(id: Int64) async throws -> LoggedDelivery? {
        try await pool.read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM deliveries WHERE id = ?", arguments: [id]) else { return nil }
            let record = try DeliveryRecord(row: row)
            return LoggedDelivery(delivery: record, attempts: try Self.attempts(db, deliveryID: id))
        }
    }

    static func attempts(_ db: Database, deliveryID: Int64) throws -> [DeliveryAttempt] {
        try Row.fetchAll(
            db, sql: "SELECT at_ms, status, reason, error, apns_id FROM delivery_attempts WHERE delivery_id = ? ORDER BY at_ms, rowid",
            arguments: [deliveryID]
        ).map { row in
            let raw: String = row["apns_id"]
            guard let uuid = UUID(uuidString: raw) else {
                throw PushStoreError.corruptValue(table: "delivery_attempts", column: "apns_id", value: raw)
            }
            return DeliveryAttempt(atMs: row["at_ms"], status: row["status"], reason: row["reason"], error: row["error"], apnsID: uuid)
        }
    }
}
