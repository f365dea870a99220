import PushCore
import Foundation
import GRDB
import StoreContract
import UUIDText

extension SQLiteStore {
    /// What happened to message `messageID` for `user`: the decision and each delivery with its
    /// attempts, from one read. Only skips are stored as decisions; deliveries mean "push".
    public func deliveryLog(app: String, messageID: Int64, user: String) async throws -> MessageDeliveryLog {
        try await pool.read { db in
            let decision = try Row.fetchOne(
                db, sql: "SELECT decision, created_at_ms FROM decisions WHERE app_id = ? AND message_id = ? AND user_id = ?",
                arguments: [app, messageID, user])
            let deliveries = try Self.deliveryRecords(
                db, where: "d.app_id = ? AND d.message_id = ? AND d.user_id = ? ORDER BY d.id",
                arguments: [app, messageID, user])
            // Databases written before skips-only decisions also hold 'push' rows; they read the same.
            let stored = (decision?["decision"] as String?).map(PushDecision.init(code:))
            let accepted: Int64? = decision?["created_at_ms"] ?? deliveries.first?.createdAtMs
            return MessageDeliveryLog(
                appID: app, messageID: messageID, userID: user,
                decision: stored ?? (deliveries.isEmpty ? nil : .push), acceptedAtMs: accepted,
                deliveries: try deliveries.map { try Self.logged(db, $0) })
        }
    }

    /// A user's most recent deliveries, newest first, with their attempts: those among their app's
    /// deliveries of its newest `PerAppLogWindow.messages` pushed messages, and its test and badge
    /// pushes (message 0). Read through `deliveries_on_message` alone, so another app's volume
    /// costs nothing here. There is deliberately no per-user index (it made every accepted push
    /// cost a random page write: `DeliveryQueueSchemaV3`).
    public func recentDeliveries(app: String, user: String, limit: Int) async throws -> [LoggedDelivery] {
        try await pool.read { db in
            let ids = try Int64.fetchAll(
                db,
                sql: """
                    SELECT id FROM (
                        SELECT id, user_id FROM deliveries INDEXED BY deliveries_on_message
                        WHERE app_id = ?1 AND message_id > 0 ORDER BY message_id DESC LIMIT ?3)
                    WHERE user_id = ?2
                    UNION ALL
                    SELECT id FROM (
                        SELECT id, user_id FROM deliveries INDEXED BY deliveries_on_message
                        WHERE app_id = ?1 AND message_id < 0 ORDER BY message_id LIMIT ?3)
                    WHERE user_id = ?2
                    UNION ALL
                    SELECT id FROM deliveries INDEXED BY deliveries_on_message WHERE app_id = ?1 AND message_id = 0 AND user_id = ?2
                    ORDER BY 1 DESC LIMIT ?4
                    """, arguments: [app, user, PerAppLogWindow.deliveries, max(0, limit)])
            guard !ids.isEmpty else { return [] }
            return try Self.deliveryRecords(
                db, where: "d.id IN (\(ids.map(String.init).joined(separator: ","))) ORDER BY d.id DESC", arguments: []
            ).map { try Self.logged(db, $0) }
        }
    }

    /// A user's most recent skipped messages, newest first, among their app's newest
    /// `PerAppLogWindow.decisions` decisions by message id (the table's key: its rows alone).
    public func recentSkips(app: String, user: String, limit: Int) async throws -> [SkippedMessage] {
        try await pool.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT message_id, decision, created_at_ms FROM (
                        SELECT * FROM (SELECT message_id, user_id, decision, created_at_ms FROM decisions
                            WHERE app_id = ?1 AND message_id >= 0 ORDER BY message_id DESC LIMIT ?2)
                        UNION ALL
                        SELECT * FROM (SELECT message_id, user_id, decision, created_at_ms FROM decisions
                            WHERE app_id = ?1 AND message_id < 0 ORDER BY message_id LIMIT ?2))
                    WHERE user_id = ?3 AND decision <> 'push'
                    ORDER BY created_at_ms DESC, message_id DESC LIMIT ?4
                    """, arguments: [app, PerAppLogWindow.decisions, user, max(0, limit)]
            ).map { SkippedMessage(messageID: $0[0], decision: PushDecision(code: $0[1]), atMs: $0[2]) }
        }
    }

    /// The delivery with this id, with its attempts.
    public func delivery(id: Int64) async throws -> LoggedDelivery? {
        try await pool.read { db in
            guard let record = try Self.deliveryRecords(db, where: "d.id = ?", arguments: [id]).first else { return nil }
            return try Self.logged(db, record)
        }
    }

    public func acknowledge(ids: [Int64], atMs: Int64) async throws -> [Int64] {
        guard !ids.isEmpty else { return [] }
        return try await pool.write { db in
            try Int64.fetchAll(
                db,
                sql: """
                    UPDATE deliveries SET acknowledged_at_ms = ?
                    WHERE id IN (\(ids.map(String.init).joined(separator: ","))) AND acknowledged_at_ms IS NULL RETURNING id
                    """, arguments: [atMs])
        }
    }

    public func recordClicks(ids: [Int64], atMs: Int64) async throws -> [Int64] {
        guard !ids.isEmpty else { return [] }
        return try await pool.write { db in
            try Int64.fetchAll(
                db,
                sql: """
                    UPDATE deliveries SET clicked_at_ms = ?, acknowledged_at_ms = coalesce(acknowledged_at_ms, ?)
                    WHERE id IN (\(ids.map(String.init).joined(separator: ","))) AND clicked_at_ms IS NULL RETURNING id
                    """, arguments: [atMs, atMs])
        }
    }

    /// A delivery with its attempts, acknowledgement, click, FCM message name and test mark (read
    /// apart: the hot claim path never reads them).
    private static func logged(_ db: Database, _ record: DeliveryRecord) throws -> LoggedDelivery {
        let row = try Row.fetchOne(
            db, sql: "SELECT acknowledged_at_ms, clicked_at_ms, message_name, is_test FROM deliveries WHERE id = ?",
            arguments: [record.id])
        return LoggedDelivery(
            delivery: record, attempts: try attempts(db, delivery: record), acknowledgedAtMs: row?[0], clickedAtMs: row?[1],
            providerMessageID: row?[2], isTest: (row?[3] as Int64? ?? 0) != 0)
    }

    /// Deliveries (without their payloads) matching a condition on `deliveries d`.
    private static func deliveryRecords(_ db: Database, where condition: String, arguments: StatementArguments) throws
        -> [DeliveryRecord]
    {
        let statement = try db.makeStatement(sql: "SELECT \(DeliveryRecord.columns) FROM deliveries d WHERE \(condition)")
        try statement.setArguments(arguments)
        var records: [DeliveryRecord] = []
        try RawStatement(statement, keepingArguments: true).forEachRow { records.append(try DeliveryRecord($0)) }
        return records
    }

    /// A delivery's attempts, oldest first. The accepted send of a sent delivery has no row of its
    /// own (`recordOutcomes` leaves it to the delivery's row) and is put back here; rows written
    /// before 2026-11-23 hold it already.
    static func attempts(_ db: Database, delivery: DeliveryRecord) throws -> [DeliveryAttempt] {
        var attempts = try Row.fetchAll(
            db, sql: "SELECT at_ms, status, reason, error, push_id FROM delivery_attempts WHERE delivery_id = ? ORDER BY at_ms, rowid",
            arguments: [delivery.id]
        ).map { row in
            let raw: String = row["push_id"]
            guard let uuid = UUIDText.parse(raw) else {
                throw PushStoreError.corruptValue(table: "delivery_attempts", column: "push_id", value: raw)
            }
            return DeliveryAttempt(atMs: row["at_ms"], status: row["status"], reason: row["reason"], error: row["error"], pushID: uuid)
        }
        if delivery.state == .sent, let sentAtMs = delivery.sentAtMs, !attempts.contains(where: { $0.status == 200 }) {
            attempts.append(DeliveryAttempt(atMs: sentAtMs, status: 200, reason: nil, error: nil, pushID: delivery.pushID))
        }
        return attempts
    }
}
