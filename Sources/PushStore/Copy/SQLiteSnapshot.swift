import Foundation
import GRDB
import StoreContract

/// An SQLite database as it stood at one moment, read page by page: every read sees the same
/// state (one read transaction, held until the snapshot is released), whatever a relay still
/// running on the file writes meanwhile. What `push-relay migrate-store` copies from.
public final class SQLiteSnapshot: StoreSnapshot {
    private let snapshot: DatabaseSnapshot

    /// - Parameter store: opened (and so migrated to the current schema) by the caller.
    public init(_ store: SQLiteStore) throws {
        snapshot = try store.pool.makeSnapshot()
    }

    /// Rows in `table` (a `CopiedTable`'s name, or `deliveries`, `delivery_payloads`,
    /// `delivery_attempts`).
    public func count(_ table: String) async throws -> Int {
        try await snapshot.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") ?? 0 }
    }

    /// Deliveries by state, for the report (`in_flight` ones arrive pending).
    public func deliveryStates() async throws -> [String: Int] {
        try await snapshot.read { db in
            var states: [String: Int] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT state, count(*) FROM deliveries GROUP BY state") {
                states[row[0] as String] = row[1] as Int
            }
            return states
        }
    }

    /// Up to `limit` rows after `cursor` (from the start when nil), in `table.pageKey` order.
    public func page(_ table: CopiedTable, after cursor: TablePage.Cursor?, limit: Int) async throws -> TablePage {
        try await snapshot.read { db in
            let key = table.pageKey.joined(separator: ", ")
            let marks = Array(repeating: "?", count: table.pageKey.count).joined(separator: ", ")
            let filter = cursor == nil ? "" : "WHERE (\(key)) > (\(marks))"
            let sql = """
                SELECT \(key), \(table.columnNames.joined(separator: ", ")) FROM \(table.name) \(filter)
                ORDER BY \(key) LIMIT \(limit)
                """
            let rows = try Row.fetchAll(db, sql: sql, arguments: StatementArguments((cursor?.key ?? []).map(Self.databaseValue)))
            let offset = table.pageKey.count
            let columns = table.columns.enumerated().map { index, column -> TablePage.Values in
                let i = offset + index
                switch column.kind {
                case .text: return .text(rows.map { $0[i] as String? })
                case .integer: return .integer(rows.map { $0[i] as Int64? })
                case .blob: return .blob(rows.map { $0[i] as Data? ?? Data() })
                case .boolean: return .boolean(rows.map { ($0[i] as Int64? ?? 0) != 0 })
                }
            }
            let next =
                rows.count < limit ? nil : rows.last.map { row in TablePage.Cursor(key: (0..<offset).map { Self.cursorValue(row[$0]) }) }
            return TablePage(table: table, columns: columns, count: rows.count, next: next)
        }
    }

    /// Up to `limit` deliveries with ids above `id` (from the start when nil), each with its
    /// payload and attempts.
    public func deliveries(after id: Int64?, limit: Int) async throws -> DeliveryPage {
        try await snapshot.read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT d.id, d.app_id, d.message_id, d.user_id, d.device_token, d.push_id, d.push_type, d.priority,
                        d.expires_at_ms, d.state, d.attempts, d.next_attempt_at_ms, d.last_status, d.last_reason, d.sent_at_ms,
                        d.created_at_ms, d.updated_at_ms, p.payload, d.acknowledged_at_ms, d.message_name, p.spans,
                        d.clicked_at_ms, d.is_test, d.provider
                    FROM deliveries d LEFT JOIN delivery_payloads p ON p.delivery_id = d.id
                    WHERE d.id > ? ORDER BY d.id LIMIT ?
                    """, arguments: [id ?? Int64.min, limit])
            guard let first = rows.first?[0] as Int64?, let last = rows.last?[0] as Int64? else {
                return DeliveryPage(deliveries: [], next: nil)
            }
            var log: [Int64: [DeliveryPage.Attempt]] = [:]
            let attempts = try Row.fetchCursor(
                db,
                sql: """
                    SELECT delivery_id, at_ms, status, reason, error, push_id FROM delivery_attempts
                    WHERE delivery_id BETWEEN ? AND ? ORDER BY delivery_id, at_ms, rowid
                    """, arguments: [first, last])
            while let row = try attempts.next() {
                log[row[0], default: []].append(
                    DeliveryPage.Attempt(atMs: row[1], status: row[2], reason: row[3], error: row[4], pushID: row[5]))
            }
            // Payloads stored apart from their event's shared bytes are copied whole. A damaged
            // one stops the copy: PostgreSQL would keep it as it came.
            var reader = try StoredPayloadReader(db)
            let deliveries = try rows.map { row in
                var payload: Data? = row[17]
                if payload == nil {
                    // Stored with its event's other payloads (`PackedPayloads`); nil when erased.
                    payload = try reader.packedPayload(app: row[1], messageID: row[2], deliveryID: row[0])
                } else if let spans = row[20] as Data?, let alone = payload {
                    guard let bytes = try reader.sharedBytes(app: row[1], messageID: row[2]),
                        let whole = StoredPayload.join(alone, spans: spans, shared: bytes)
                    else {
                        throw PushStoreError.corruptValue(table: "delivery_payloads", column: "spans", value: "delivery \(row[0] as Int64)")
                    }
                    payload = whole
                }
                return DeliveryPage.Delivery(
                    appID: row[1], messageID: row[2], userID: row[3], deviceToken: row[4], pushID: row[5], provider: row[23],
                    pushType: row[6],
                    priority: row[7], expiresAtMs: row[8], state: row[9], attempts: row[10], nextAttemptAtMs: row[11],
                    lastStatus: row[12], lastReason: row[13], sentAtMs: row[14], createdAtMs: row[15], updatedAtMs: row[16],
                    acknowledgedAtMs: row[18], clickedAtMs: row[21], providerMessageID: row[19], isTest: (row[22] as Int64? ?? 0) != 0,
                    payload: payload, attemptLog: log[row[0]] ?? [])
            }
            return DeliveryPage(deliveries: deliveries, next: rows.count < limit ? nil : last)
        }
    }

    static func databaseValue(_ value: TablePage.Cursor.Value) -> DatabaseValue {
        switch value {
        case .null: .null
        case .integer(let v): v.databaseValue
        case .text(let v): v.databaseValue
        case .blob(let v): v.databaseValue
        }
    }

    static func cursorValue(_ value: DatabaseValue) -> TablePage.Cursor.Value {
        switch value.storage {
        case .null: .null
        case .int64(let v): .integer(v)
        case .double(let v): .integer(Int64(v))
        case .string(let v): .text(v)
        case .blob(let v): .blob(v)
        }
    }
}
