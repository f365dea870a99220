import PostgresNIO
import StoreContract

extension PostgresStore {
    /// Deletes events, decisions and finished deliveries (with their attempts and payloads)
    /// created before `cutoffMs`, in transactions of at most `batch` rows. Unfinished deliveries
    /// are kept whatever their age. Returns how many deliveries were deleted.
    ///
    /// Every relay runs a pruner, and one pruning at a time is enough: each batch's transaction
    /// first tries the fleet's pruning lock, and when another relay holds it this one stops and
    /// returns what it deleted so far (the holder goes on to the end, so every old row is deleted
    /// once, by one of them).
    @discardableResult
    public func prune(olderThanMs cutoffMs: Int64, batch: Int) async throws -> Int {
        let batch = max(1, batch)
        var deleted = 0
        // Where the last batch stopped in (created_at_ms, id) order: old unfinished deliveries,
        // which stay, are passed over once, not once per batch.
        var after: (createdAtMs: Int64, id: Int64) = (Int64.min, Int64.min)
        while true {
            let from = after
            let result = try await prunerBatch { connection -> (Int, (Int64, Int64)?) in
                let row = try await connection.rows(
                    """
                    WITH doomed AS (
                        SELECT id FROM deliveries
                        WHERE created_at_ms < \(cutoffMs) AND (created_at_ms, id) > (\(from.createdAtMs), \(from.id))
                            AND state NOT IN ('pending', 'in_flight')
                        ORDER BY created_at_ms, id LIMIT \(Int64(batch))
                    ), payloads AS (
                        DELETE FROM delivery_payloads WHERE delivery_id IN (SELECT id FROM doomed)
                    ), attempts AS (
                        DELETE FROM delivery_attempts WHERE delivery_id IN (SELECT id FROM doomed)
                    ), gone AS (
                        DELETE FROM deliveries WHERE id IN (SELECT id FROM doomed) RETURNING id, created_at_ms
                    )
                    SELECT COUNT(*), MAX(ARRAY[created_at_ms, id]) FROM gone
                    """, logger: logger
                ) { try $0.decode((Int, [Int64]?).self) }.first
                guard let (count, last) = row, let last, last.count == 2 else { return (0, nil) }
                return (count, (last[0], last[1]))
            }
            guard let (count, last) = result else { return deleted }
            deleted += count
            guard count == batch, let last else { break }
            after = last
        }
        for (table, key) in [("decisions", "app_id, message_id, user_id"), ("events", "app_id, message_id")] {
            while true {
                let count = try await prunerBatch { connection in
                    try await connection.count(
                        """
                        DELETE FROM \(unescaped: table) WHERE (\(unescaped: key)) IN (
                            SELECT \(unescaped: key) FROM \(unescaped: table) WHERE created_at_ms < \(cutoffMs) LIMIT \(Int64(batch)))
                        RETURNING 1
                        """, logger: logger)
                }
                guard let count else { return deleted }
                if count < batch { break }
            }
        }
        return deleted
    }

    /// One batch in its own transaction, under the fleet's pruning lock; nil (nothing done) when
    /// another relay holds it.
    private func prunerBatch<T: Sendable>(_ body: (PostgresConnection) async throws -> T) async throws -> T? {
        try await transaction { connection in
            let locked = try await connection.value(
                "SELECT pg_try_advisory_xact_lock(\(AdvisoryLock.jobClass), \(AdvisoryLock.pruning))", as: Bool.self, logger: logger)
            guard locked == true else { return nil }
            return try await body(connection)
        }
    }
}
