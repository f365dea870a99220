import Testing

/// The PostgreSQL store's frequent statements can each be answered from an index (SQLite's
/// counterpart: `PushStoreTests.lookupsUseAnIndex`). The tables are empty, so sequential scans are
/// disabled for the check: a plan that still has one has no index to use.
@Suite(.timeLimit(.minutes(5))) struct PostgresQueryPlanTests {
    /// One migrated database for every statement checked.
    static let database = Task { () throws -> TestDatabase in
        let db = try await TestDatabase.make(.postgres)
        try await db.open().close()
        return db
    }

    @Test(arguments: [
        // The claim: each app's due deliveries, the loose scan for the apps, the lease sweep, the wake-up.
        """
        SELECT id FROM deliveries WHERE state = 'pending' AND app_id = 'a' AND next_attempt_at_ms <= 5 \
        ORDER BY next_attempt_at_ms, id LIMIT 10
        """,
        "SELECT app_id FROM deliveries WHERE state = 'pending' AND app_id > 'a' ORDER BY app_id LIMIT 1",
        "UPDATE deliveries SET state = 'pending' WHERE state = 'in_flight' AND lease_expires_at_ms < 5",
        "SELECT MIN(next_attempt_at_ms) FROM deliveries WHERE state = 'pending'",
        "SELECT MIN(lease_expires_at_ms) FROM deliveries WHERE state = 'in_flight' AND lease_owner <> 'a'",
        "UPDATE deliveries SET lease_expires_at_ms = 5 WHERE state = 'in_flight' AND lease_owner = 'a'",
        "SELECT payload FROM delivery_payloads WHERE delivery_id = 1",
        // The webhook's read of its recipients (per user, for a list of users).
        "SELECT user_id, push_template FROM users WHERE app_id = 'a' AND user_id = ANY('{u,v}'::text[])",
        "SELECT token FROM device_tokens WHERE app_id = 'a' AND user_id = 'u' ORDER BY registered_at, id",
        "SELECT * FROM user_push_preferences WHERE app_id = 'a' AND user_id = 'u'",
        "SELECT * FROM channel_push_preferences WHERE app_id = 'a' AND user_id = 'u'",
        "SELECT * FROM push_message_templates WHERE app_id = 'a'",
        // The REST API and the delivery log.
        "SELECT user_id FROM device_tokens WHERE app_id = 'a' AND token = 't'",
        "SELECT * FROM session_tokens WHERE token_digest = '\\x00'::bytea",
        "SELECT * FROM deliveries WHERE app_id = 'a' AND user_id = 'u' ORDER BY id DESC LIMIT 20",
        "SELECT * FROM deliveries WHERE app_id = 'a' AND message_id = 1 AND user_id = 'u' ORDER BY id",
        "SELECT * FROM delivery_attempts WHERE delivery_id = ANY('{1,2}'::bigint[]) ORDER BY delivery_id, at_ms, id",
        // A user's skips and the erasure's probes: by user, answer-bounded.
        """
        SELECT message_id, decision, created_at_ms FROM decisions WHERE app_id = 'a' AND user_id = 'u' AND decision <> 'push' \
        ORDER BY created_at_ms DESC, message_id DESC LIMIT 20
        """,
        "SELECT EXISTS (SELECT 1 FROM events WHERE app_id = 'a' AND sender_id = 'u')",
        // Pruning.
        """
        SELECT id FROM deliveries WHERE created_at_ms < 5 AND (created_at_ms, id) > (0, 0) AND state NOT IN ('pending', 'in_flight') \
        ORDER BY created_at_ms, id LIMIT 10
        """,
        "SELECT app_id, message_id, user_id FROM decisions WHERE created_at_ms < 5 LIMIT 10",
        "SELECT app_id, message_id FROM events WHERE created_at_ms < 5 LIMIT 10",
        // Notifications: the claim and the wake-up, a fan-out's walks, the key, the API's list,
        // a topic's and a user's subscriptions, the erasure's probes.
        """
        SELECT id FROM notifications WHERE state IN ('scheduled', 'sending') AND next_run_at_ms <= 5 \
        ORDER BY next_run_at_ms, id LIMIT 1 FOR UPDATE SKIP LOCKED
        """,
        "SELECT MIN(next_run_at_ms) FROM notifications WHERE state IN ('scheduled', 'sending')",
        "SELECT user_id FROM topic_subscriptions WHERE app_id = 'a' AND topic = 't' AND user_id > 'u' ORDER BY user_id LIMIT 10",
        """
        SELECT user_id, due_at_ms FROM notification_recipients WHERE notification_id = 1 AND due_at_ms <= 5 \
        ORDER BY due_at_ms, user_id LIMIT 10
        """,
        "SELECT id FROM notifications WHERE app_id = 'a' AND idempotency_key = 'k'",
        "SELECT id FROM notifications WHERE app_id = 'a' AND id < 9 ORDER BY id DESC LIMIT 10",
        "SELECT topic FROM topic_subscriptions WHERE app_id = 'a' AND user_id = 'u' ORDER BY topic",
        "DELETE FROM notification_recipients WHERE app_id = 'a' AND user_id = 'u'",
        "SELECT COUNT(*) FROM deliveries WHERE app_id = 'a' AND message_id = -1",
    ])
    func statementsHaveAnIndex(query: String) async throws {
        let db = try await Self.database.value
        let (cluster, database) = try #require(db.postgresDatabase)
        let plan = try await cluster.psql(database: database, "SET enable_seqscan = off; EXPLAIN \(query)").map { $0.joined() }
        #expect(!plan.isEmpty)
        #expect(!plan.contains { $0.contains("Seq Scan") }, "no index for: \(plan.joined(separator: "\n"))")
    }
}
