import PostgresNIO
import PushCore
import StoreContract

extension PostgresStore {
    /// What happened to message `messageID` for `user`: the decision and each delivery with its
    /// attempts, from one snapshot. Only skips are stored as decisions; deliveries mean "push".
    public func deliveryLog(app: String, messageID: Int64, user: String) async throws -> MessageDeliveryLog {
        try await transaction(.snapshot) { connection in
            let decision = try await connection.rows(
                """
                SELECT decision, created_at_ms FROM decisions WHERE app_id = \(app) AND message_id = \(messageID) AND user_id = \(user)
                """, logger: logger
            ) { try $0.decode((String, Int64).self) }.first
            let deliveries = try await Self.loggedDeliveries(
                connection,
                """
                SELECT \(unescaped: DeliveryColumns.list) FROM deliveries
                WHERE app_id = \(app) AND message_id = \(messageID) AND user_id = \(user) ORDER BY id
                """, logger: logger)
            // Databases written before skips-only decisions also hold 'push' rows; they read the same.
            let stored = decision.map { PushDecision(code: $0.0) }
            return MessageDeliveryLog(
                appID: app, messageID: messageID, userID: user,
                decision: stored ?? (deliveries.isEmpty ? nil : .push), acceptedAtMs: decision?.1 ?? deliveries.first?.delivery.createdAtMs,
                deliveries: deliveries)
        }
    }

    /// A user's most recent deliveries, newest first, with their attempts. `deliveries_on_user`
    /// serves it exactly, however old they are (SQLite bounds the scan instead).
    public func recentDeliveries(app: String, user: String, limit: Int) async throws -> [LoggedDelivery] {
        try await transaction(.snapshot) { connection in
            try await Self.loggedDeliveries(
                connection,
                """
                SELECT \(unescaped: DeliveryColumns.list) FROM deliveries WHERE app_id = \(app) AND user_id = \(user)
                ORDER BY id DESC LIMIT \(Int64(max(0, limit)))
                """, logger: logger)
        }
    }

    /// A user's most recent skipped messages, newest first (read through `decisions_on_user`).
    public func recentSkips(app: String, user: String, limit: Int) async throws -> [SkippedMessage] {
        try await transaction(.snapshot) { connection in
            try await connection.rows(
                """
                SELECT message_id, decision, created_at_ms FROM decisions
                WHERE app_id = \(app) AND user_id = \(user) AND decision <> 'push'
                ORDER BY created_at_ms DESC, message_id DESC LIMIT \(Int64(max(0, limit)))
                """, logger: logger
            ) { row in
                let (message, code, at) = try row.decode((Int64, String, Int64).self)
                return SkippedMessage(messageID: message, decision: PushDecision(code: code), atMs: at)
            }
        }
    }

    /// The delivery with this id, with its attempts.
    public func delivery(id: Int64) async throws -> LoggedDelivery? {
        try await transaction(.snapshot) { connection in
            try await Self.loggedDeliveries(
                connection, "SELECT \(unescaped: DeliveryColumns.list) FROM deliveries WHERE id = \(id)", logger: logger
            ).first
        }
    }

    /// The deliveries `query` selects (`DeliveryColumns.list`, no payload), in its order, each
    /// with its attempts: two statements, whatever the number of deliveries.
    private static func loggedDeliveries(_ connection: PostgresConnection, _ query: PostgresQuery, logger: Logger) async throws
        -> [LoggedDelivery]
    {
        let records = try await connection.rows(query, logger: logger, DeliveryColumns.record)
        guard !records.isEmpty else { return [] }
        var attempts: [Int64: [DeliveryAttempt]] = [:]
        for row in try await connection.rows(
            """
            SELECT delivery_id, at_ms, status, reason, error, apns_id FROM delivery_attempts
            WHERE delivery_id = ANY(\(PostgresArray.int8(records.map(\.id)))) ORDER BY delivery_id, at_ms, id
            """, logger: logger)
        {
            let (deliveryID, attempt) = try DeliveryColumns.attempt(row)
            attempts[deliveryID, default: []].append(attempt)
        }
        var extras: [Int64: (acknowledgedAtMs: Int64?, clickedAtMs: Int64?, providerMessageID: String?, isTest: Bool)] = [:]
        for row in try await connection.rows(
            """
            SELECT id, acknowledged_at_ms, clicked_at_ms, message_name, is_test FROM deliveries
            WHERE id = ANY(\(PostgresArray.int8(records.map(\.id))))
                AND (acknowledged_at_ms IS NOT NULL OR clicked_at_ms IS NOT NULL OR message_name IS NOT NULL OR is_test)
            """, logger: logger)
        {
            let (id, acknowledged, clicked, name, isTest) = try row.decode((Int64, Int64?, Int64?, String?, Bool).self)
            extras[id] = (acknowledged, clicked, name, isTest)
        }
        return records.map {
            LoggedDelivery(
                delivery: $0, attempts: withAcceptedAttempt(attempts[$0.id] ?? [], of: $0),
                acknowledgedAtMs: extras[$0.id]?.acknowledgedAtMs, clickedAtMs: extras[$0.id]?.clickedAtMs,
                providerMessageID: extras[$0.id]?.providerMessageID, isTest: extras[$0.id]?.isTest ?? false)
        }
    }

    public func acknowledge(ids: [Int64], atMs: Int64) async throws -> [Int64] {
        guard !ids.isEmpty else { return [] }
        return try await withConnection { connection in
            try await connection.rows(
                """
                UPDATE deliveries SET acknowledged_at_ms = \(atMs)
                WHERE id = ANY(\(PostgresArray.int8(ids))) AND acknowledged_at_ms IS NULL RETURNING id
                """, logger: logger
            ) { try $0.decode(Int64.self) }
        }
    }

    public func recordClicks(ids: [Int64], atMs: Int64) async throws -> [Int64] {
        guard !ids.isEmpty else { return [] }
        return try await withConnection { connection in
            try await connection.rows(
                """
                UPDATE deliveries SET clicked_at_ms = \(atMs), acknowledged_at_ms = coalesce(acknowledged_at_ms, \(atMs))
                WHERE id = ANY(\(PostgresArray.int8(ids))) AND clicked_at_ms IS NULL RETURNING id
                """, logger: logger
            ) { try $0.decode(Int64.self) }
        }
    }

    /// The accepted send of a sent delivery has no row of its own (`recordOutcomes` leaves it to
    /// the delivery's row) and is put back here, last.
    private static func withAcceptedAttempt(_ attempts: [DeliveryAttempt], of delivery: DeliveryRecord) -> [DeliveryAttempt] {
        guard delivery.state == .sent, let sentAtMs = delivery.sentAtMs, !attempts.contains(where: { $0.status == 200 }) else {
            return attempts
        }
        return attempts + [DeliveryAttempt(atMs: sentAtMs, status: 200, reason: nil, error: nil, pushID: delivery.pushID)]
    }
}
