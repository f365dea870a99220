import Foundation
import PostgresNIO
import StoreContract

/// What `StoreMigration` writes with: a page of another store's rows at a time, one statement
/// each, and a count of which of them are here. A row whose key is here already is left as it
/// is, so a second run, or a run after an interrupted one, adds only what is missing.
extension PostgresStore {
    /// Inserts the page's rows that are not here yet; returns how many it inserted. Registry
    /// tables notify every relay's recipient cache.
    public func importPage(_ page: TablePage) async throws -> Int {
        guard page.count > 0 else { return 0 }
        let columns = page.table.columnNames.joined(separator: ", ")
        var binds = PostgresBindings(capacity: page.columns.count)
        for values in page.columns { binds.append(values.array) }
        let marks = (1...page.columns.count).map { "$\($0)" }.joined(separator: ", ")
        let query = PostgresQuery(
            unsafeSQL: """
                WITH inserted AS (
                    INSERT INTO \(page.table.name) (\(columns))
                    SELECT \(columns) FROM unnest(\(marks)) AS s(\(columns))
                    ON CONFLICT DO NOTHING RETURNING 1
                )
                SELECT count(*) FROM inserted
                """, binds: binds)
        let write: (PostgresConnection) async throws -> Int = { connection in
            let inserted = Int(try await connection.value(query, as: Int64.self, logger: self.logger) ?? 0)
            if let id = page.table.keptID {
                try await Self.movePastCopiedIDs(table: page.table.name, column: id, connection, logger: self.logger)
            }
            return inserted
        }
        return page.table.isRegistry ? try await registryWrite(app: nil, write) : try await transaction(.write, write)
    }

    /// Moves the table's id sequence past the ids copied into it, never back: the next id the
    /// target gives is new.
    private static func movePastCopiedIDs(table: String, column: String, _ connection: PostgresConnection, logger: Logger) async throws {
        let sequence = "pg_get_serial_sequence('\(table)', '\(column)')"
        try await connection.run(
            PostgresQuery(
                unsafeSQL: """
                    SELECT setval(\(sequence), max(\(column))) FROM \(table)
                    HAVING max(\(column)) > COALESCE(pg_sequence_last_value(\(sequence)::regclass), 0)
                    """), logger: logger)
    }

    /// How many of the page's rows are here, by `matchKey`.
    public func countPresent(_ page: TablePage) async throws -> Int {
        guard page.count > 0 else { return 0 }
        let key = page.table.matchColumns
        var binds = PostgresBindings(capacity: key.count)
        for column in key {
            guard let values = page.values(of: column.name) else { continue }
            binds.append(values.array)
        }
        let names = key.map(\.name)
        let marks = (1...key.count).map { "$\($0)" }.joined(separator: ", ")
        let matches = names.map { "t.\($0) = s.\($0)" }.joined(separator: " AND ")
        let query = PostgresQuery(
            unsafeSQL: """
                SELECT count(*) FROM unnest(\(marks)) AS s(\(names.joined(separator: ", ")))
                WHERE EXISTS (SELECT 1 FROM \(page.table.name) t WHERE \(matches))
                """, binds: binds)
        return try await withConnection { connection in
            Int(try await connection.value(query, as: Int64.self, logger: logger) ?? 0)
        }
    }

    /// Inserts the page's deliveries that are not here yet (none with the same app, message,
    /// user and apns-id), each with its payload and attempts, in one statement: a delivery is
    /// never here without them. One in flight at the source arrives pending, unleased: the
    /// relay that had claimed it is gone, and the next claim sends it with the same apns-id.
    /// - Returns: deliveries, payloads and attempts inserted.
    public func importDeliveries(_ page: DeliveryPage) async throws -> (deliveries: Int, payloads: Int, attempts: Int) {
        guard !page.deliveries.isEmpty else { return (0, 0, 0) }
        let d = page.deliveries
        var attemptOf: [Int64?] = [], atMs: [Int64?] = [], status: [Int64?] = [], reason: [String?] = []
        var error: [String?] = [], attemptAPNsID: [String?] = []
        for (index, delivery) in d.enumerated() {
            for attempt in delivery.attemptLog {
                attemptOf.append(Int64(index + 1))
                atMs.append(attempt.atMs)
                status.append(attempt.status)
                reason.append(attempt.reason)
                error.append(attempt.error)
                attemptAPNsID.append(attempt.pushID)
            }
        }
        let row = try await retryingTransientFailures {
            try await withConnection { connection in
                try await connection.rows(
                    """
                    WITH src AS (
                        SELECT * FROM unnest(
                            \(PostgresArray.text(d.map(\.appID))), \(PostgresArray.int8(d.map(\.messageID))),
                            \(PostgresArray.text(d.map(\.userID))), \(PostgresArray.text(d.map(\.deviceToken))),
                            \(PostgresArray.text(d.map(\.pushID))), \(PostgresArray.text(d.map(\.pushType))),
                            \(PostgresArray.int8(d.map(\.priority))), \(PostgresArray.int8(d.map(\.expiresAtMs))),
                            \(PostgresArray.text(d.map(\.state))), \(PostgresArray.int8(d.map(\.attempts))),
                            \(PostgresArray.int8(d.map(\.nextAttemptAtMs))), \(PostgresArray.int8(d.map(\.lastStatus))),
                            \(PostgresArray.text(d.map(\.lastReason))), \(PostgresArray.int8(d.map(\.sentAtMs))),
                            \(PostgresArray.int8(d.map(\.createdAtMs))), \(PostgresArray.int8(d.map(\.updatedAtMs))),
                            \(PostgresArray.bool(d.map { $0.payload != nil })), \(PostgresArray.bytea(d.map { $0.payload ?? Data() })),
                            \(PostgresArray.int8(d.map(\.acknowledgedAtMs))), \(PostgresArray.text(d.map(\.providerMessageID))),
                            \(PostgresArray.int8(d.map(\.clickedAtMs))), \(PostgresArray.bool(d.map(\.isTest))),
                            \(PostgresArray.text(d.map(\.provider)))
                        ) WITH ORDINALITY AS s(app_id, message_id, user_id, device_token, apns_id, push_type, priority, expires_at_ms,
                            state, attempts, next_attempt_at_ms, last_status, last_reason, sent_at_ms, created_at_ms, updated_at_ms,
                            has_payload, payload, acknowledged_at_ms, message_name, clicked_at_ms, is_test, provider, k)
                    ), fresh AS (
                        SELECT nextval(pg_get_serial_sequence('deliveries', 'id')) AS id, s.* FROM (
                            SELECT * FROM src s WHERE NOT EXISTS (
                                SELECT 1 FROM deliveries x WHERE x.app_id = s.app_id AND x.message_id = s.message_id
                                    AND x.user_id = s.user_id AND x.apns_id = s.apns_id)
                            ORDER BY k
                        ) s
                    ), queued AS (
                        INSERT INTO deliveries (id, app_id, message_id, user_id, device_token, apns_id, provider, push_type, priority,
                            expires_at_ms, state, attempts, next_attempt_at_ms, last_status, last_reason, sent_at_ms, created_at_ms,
                            updated_at_ms, acknowledged_at_ms, message_name, clicked_at_ms, is_test)
                        SELECT id, app_id, message_id, user_id, device_token, apns_id, provider, push_type, priority, expires_at_ms,
                            CASE WHEN state = 'in_flight' THEN 'pending' ELSE state END, attempts, next_attempt_at_ms, last_status,
                            last_reason, sent_at_ms, created_at_ms, updated_at_ms, acknowledged_at_ms, message_name, clicked_at_ms, is_test
                        FROM fresh
                    ), stored AS (
                        INSERT INTO delivery_payloads (delivery_id, payload) SELECT id, payload FROM fresh WHERE has_payload
                        RETURNING 1
                    ), logged AS (
                        INSERT INTO delivery_attempts (delivery_id, at_ms, status, reason, error, apns_id)
                        SELECT f.id, a.at_ms, a.status, a.reason, a.error, a.apns_id
                        FROM unnest(
                            \(PostgresArray.int8(attemptOf)), \(PostgresArray.int8(atMs)), \(PostgresArray.int8(status)),
                            \(PostgresArray.text(reason)), \(PostgresArray.text(error)), \(PostgresArray.text(attemptAPNsID))
                        ) WITH ORDINALITY AS a(k, at_ms, status, reason, error, apns_id, o)
                        JOIN fresh f ON f.k = a.k
                        ORDER BY a.o
                        RETURNING 1
                    )
                    SELECT (SELECT count(*) FROM fresh), (SELECT count(*) FROM stored), (SELECT count(*) FROM logged)
                    """, logger: logger
                ) { try $0.decode((Int64, Int64, Int64).self) }.first ?? (Int64(0), Int64(0), Int64(0))
            }
        }
        return (Int(row.0), Int(row.1), Int(row.2))
    }

    /// How many of the page's deliveries are here (by app, message, user and apns-id), with how
    /// many payloads and attempts.
    public func countPresent(_ page: DeliveryPage) async throws -> (deliveries: Int, payloads: Int, attempts: Int) {
        guard !page.deliveries.isEmpty else { return (0, 0, 0) }
        let d = page.deliveries
        let row = try await withConnection { connection in
            try await connection.rows(
                """
                SELECT count(*), count(p.delivery_id),
                    coalesce(sum((SELECT count(*) FROM delivery_attempts a WHERE a.delivery_id = x.id)), 0)::bigint
                FROM unnest(
                    \(PostgresArray.text(d.map(\.appID))), \(PostgresArray.int8(d.map(\.messageID))),
                    \(PostgresArray.text(d.map(\.userID))), \(PostgresArray.text(d.map(\.pushID)))
                ) AS s(app_id, message_id, user_id, apns_id)
                JOIN deliveries x ON x.app_id = s.app_id AND x.message_id = s.message_id AND x.user_id = s.user_id
                    AND x.apns_id = s.apns_id
                LEFT JOIN delivery_payloads p ON p.delivery_id = x.id
                """, logger: logger
            ) { try $0.decode((Int64, Int64, Int64).self) }.first ?? (Int64(0), Int64(0), Int64(0))
        }
        return (Int(row.0), Int(row.1), Int(row.2))
    }
}

extension TablePage.Values {
    /// As one array parameter.
    fileprivate var array: PostgresArray {
        switch self {
        case .text(let values): .text(values)
        case .integer(let values): .int8(values)
        case .blob(let values): .bytea(values)
        case .boolean(let values): .bool(values)
        }
    }
}
