import Foundation
import GRDB
import Synchronization
import Testing
@testable import PushStore
@testable import StoreContract
@testable import PushStorePostgres

@Suite(.timeLimit(.minutes(5))) struct PushStoreTests {
    @Test func opensWithWALForeignKeysAndTheNamedMigrations() async throws {
        let db = try TemporaryDatabase()
        let store = try db.open()
        #expect(try await store.appliedMigrations() == StoreKind.sqliteMigrations)
        let (journal, foreignKeys) = try await store.pool.read { db in
            (try String.fetchOne(db, sql: "PRAGMA journal_mode"), try Bool.fetchOne(db, sql: "PRAGMA foreign_keys"))
        }
        #expect(journal == "wal")
        #expect(foreignKeys == true)
    }

    @Test(arguments: StoreKind.allCases) func reopeningKeepsDataAndDoesNotRerunMigrations(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        do {
            let store = try await db.open()
            _ = try await store.registerToken(app: "A", user: "u", token: hexToken(1), isUnique: false)
            try await store.close()
        }
        let reopened = try await db.open()
        #expect(try await reopened.tokens(app: "A", user: "u")?.map(\.token) == [hexToken(1)])
        #expect(try await reopened.appliedMigrations() == db.migrations)
    }

    /// A store opened while the previous one's connections are still closing (dropped without
    /// `close()`): the last of them holds an exclusive lock while it cleans up the WAL, and
    /// every connection of the new store, the checkpointer's too, waits for it. The race is
    /// short; 300 rounds under a loaded machine caught it within a few seconds.
    @Test func aStoreOpensWhileTheLastOneIsStillClosing() async throws {
        let db = try TemporaryDatabase()
        for n in 0..<300 {
            let store = try db.open()
            try await store.addSessionToken(
                digest: withUnsafeBytes(of: n) { Data($0) } + Data(count: 24), app: "A", user: "u", expiresAtMs: .max)
        }
    }

    /// A database written by the previous version (payloads inside `deliveries`) keeps every
    /// queued delivery and its payload through `v3_delivery_payloads`.
    @Test func v3MovesQueuedPayloadsOutOfTheDeliveryRows() async throws {
        let db = try TemporaryDatabase()
        do {
            let pool = try DatabasePool(path: db.path)
            try PushStoreMigrations.migrator.migrate(pool, upTo: "v2_events_deliveries")
            try await pool.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO deliveries (app_id, message_id, user_id, device_token, payload, apns_id, push_type, priority,
                            expires_at_ms, state, attempts, next_attempt_at_ms, created_at_ms, updated_at_ms)
                        VALUES ('A', 1, 'u', 'ab', X'7B7D', '00000000-0000-4000-8000-000000000001', 'alert', 10, 9e15,
                                'pending', 0, 0, 0, 0)
                        """)
            }
        }
        let store = try db.open()
        let claimed = try await store.claimDue(nowMs: 1, limit: 10)
        #expect(claimed.map(\.payload) == [Data("{}".utf8)])
        #expect(claimed.map(\.state) == [.inFlight])
    }

    /// Deliveries queued before `v19_delivery_provider` (the provider told by the push type) keep
    /// where they go: FCM's and HMS's by the name they stored as push type, the others APNs.
    @Test func v19NamesEachQueuedDeliverysProvider() async throws {
        let db = try TemporaryDatabase()
        do {
            let pool = try DatabasePool(path: db.path)
            try PushStoreMigrations.migrator.migrate(pool, upTo: "v18_per_app_log")
            try await pool.write { db in
                for (n, pushType) in ["alert", "fcm", "hms", "background"].enumerated() {
                    try db.execute(
                        sql: """
                            INSERT INTO deliveries (app_id, message_id, user_id, device_token, apns_id, push_type, priority,
                                expires_at_ms, state, attempts, next_attempt_at_ms, created_at_ms, updated_at_ms)
                            VALUES ('A', 1, 'u', ?, ?, ?, 10, 9e15, 'pending', 0, ?, 0, 0)
                            """, arguments: ["t\(n)", "00000000-0000-4000-8000-00000000000\(n)", pushType, n])
                    try db.execute(
                        sql: "INSERT INTO delivery_payloads (delivery_id, payload) VALUES (?, X'7B7D')", arguments: [db.lastInsertedRowID])
                }
            }
        }
        let store = try db.open()
        let claimed = try await store.claimDue(nowMs: 10, limit: 10)
        #expect(claimed.map(\.provider) == [.apns, .fcm, .hms, .apns])
        #expect(claimed.map(\.pushType) == ["alert", "fcm", "hms", "background"])
        #expect(claimed.map { $0.pushID.uuidString.suffix(1) } == ["0", "1", "2", "3"])
    }

    @Test func aPathThatCannotBeOpenedIsAnErrorNamingThePath() throws {
        let path = "/nonexistent-dir-\(UUID().uuidString)/relay.sqlite"
        #expect {
            try SQLiteStore(path: path)
        } throws: { error in
            guard case PushStoreError.cannotOpen(let failedPath, _) = error else { return false }
            return failedPath == path && "\(error)".contains(path)
        }
    }

    /// The PostgreSQL store's `cannotOpen` names the database by its location, never the password.
    @Test func anUnreachableServerIsAnErrorNamingTheLocationWithoutThePassword() async throws {
        let configuration = try PostgresStoreConfiguration(url: "postgres://relay:s3cret@127.0.0.1:1/pushrelay", nodeID: "a")
        #expect(configuration.location == "postgres://relay@127.0.0.1:1/pushrelay")
        #expect(!"\(configuration)".contains("s3cret"))
        await #expect {
            try await PostgresStore.open(configuration: configuration)
        } throws: { error in
            guard case PushStoreError.cannotOpen(let location, _) = error else { return false }
            return location == configuration.location && !"\(error)".contains("s3cret")
        }
    }

    /// Every lookup the REST API and dispatcher make is served by an index, never a table scan.
    @Test(arguments: [
        "SELECT token, registered_at FROM device_tokens WHERE app_id = 'a' AND user_id = 'u' ORDER BY registered_at, id",
        "SELECT user_id FROM device_tokens WHERE app_id = 'a' AND token = 't'",
        "SELECT * FROM user_push_preferences WHERE app_id = 'a' AND user_id = 'u'",
        "SELECT * FROM channel_push_preferences WHERE app_id = 'a' AND user_id = 'u' AND channel_url = 'c'",
        "SELECT * FROM push_message_templates WHERE app_id = 'a'",
        "SELECT push_template FROM users WHERE app_id = 'a' AND user_id = 'u'",
        // The webhook's bulk reads (json_each is the list of users, a virtual table).
        "SELECT user_id, push_template FROM users WHERE app_id = 'a' AND user_id IN (SELECT value FROM json_each('[\"u\"]'))",
        "SELECT user_id, token FROM device_tokens WHERE app_id = 'a' AND user_id IN (SELECT value FROM json_each('[\"u\"]')) ORDER BY user_id, registered_at, id",
        "SELECT * FROM channel_push_preferences WHERE app_id = 'a' AND channel_url = 'c' AND user_id IN (SELECT value FROM json_each('[\"u\"]'))",
        // The queue.
        "SELECT d.*, p.payload FROM deliveries d LEFT JOIN delivery_payloads p ON p.delivery_id = d.id WHERE d.state = 'pending' AND d.app_id = 'a' AND d.next_attempt_at_ms <= 5 ORDER BY d.next_attempt_at_ms, d.id LIMIT 10",
        "SELECT COUNT(*) FROM deliveries WHERE state = 'in_flight'",
        "UPDATE deliveries SET state = 'pending' WHERE state = 'in_flight'",
        "SELECT MIN(next_attempt_at_ms) FROM deliveries WHERE state = 'pending' AND app_id = 'a'",
        "SELECT COUNT(*) FROM deliveries WHERE state = 'pending'",
        // The pruner's walk: a range of rowids.
        "SELECT id, created_at_ms, state, app_id, message_id FROM deliveries WHERE id > 5 ORDER BY id LIMIT 10",
        // Erasure: the deliveries of the messages the user sent, by message.
        "SELECT id FROM deliveries WHERE app_id = 'a' AND message_id IN (SELECT value FROM json_each('[1]'))",
        // A delivery's packed payload row, and the pruner dropping rows none of whose deliveries are left.
        PackedPayloads.containingRow.replacingOccurrences(of: "?", with: "5"),
        PackedPayloads.containingRowKey.replacingOccurrences(of: "?", with: "5"),
        """
        DELETE FROM packed_payloads WHERE first_delivery_id BETWEEN 1 AND 5 AND NOT EXISTS (
            SELECT 1 FROM deliveries WHERE id BETWEEN packed_payloads.first_delivery_id AND packed_payloads.last_delivery_id)
        """,
        "DELETE FROM packed_payloads WHERE first_delivery_id >= 5",
        // The per-user lists: within the app's own rows, from an index alone (no other app's rows
        // are read), and the erasure's probe of a user.
        """
        SELECT id FROM (SELECT id, user_id FROM deliveries INDEXED BY deliveries_on_message WHERE app_id = 'a' AND message_id > 0
        ORDER BY message_id DESC LIMIT 100) WHERE user_id = 'u'
        """,
        "SELECT id FROM deliveries INDEXED BY deliveries_on_message WHERE app_id = 'a' AND message_id = 0 AND user_id = 'u'",
        """
        SELECT message_id, decision, created_at_ms FROM (SELECT message_id, user_id, decision, created_at_ms FROM decisions
        WHERE app_id = 'a' ORDER BY message_id DESC LIMIT 100) WHERE user_id = 'u'
        """,
        "SELECT message_id FROM decisions WHERE app_id = 'a' AND user_id = 'u'",
    ])
    func lookupsUseAnIndex(query: String) async throws {
        let db = try TemporaryDatabase()
        let store = try db.open()
        let plan = try await store.pool.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + query).map { $0["detail"] as String }
        }
        #expect(!plan.isEmpty)
        for step in plan {
            // Allowed scans: the json_each list, and the partial indexes that hold only the queue.
            // A subquery's rows and a constant (an EXISTS) are no table.
            let allowed =
                step.contains("VIRTUAL TABLE") || step.hasSuffix("USING INDEX deliveries_in_flight")
                || step.hasSuffix("USING INDEX deliveries_due_by_app") || step.hasPrefix("SCAN (subquery")
                || step == "SCAN CONSTANT ROW"
            #expect(!step.hasPrefix("SCAN") || allowed, "table scan in plan: \(step)")
        }
    }

    /// The probes of a user by id are probes: an index on the id, not a search of the app's rows
    /// (`app_id=?` alone would read every event of the app for an id nobody sent as; the events
    /// and skips of a user are searched only once `logged_users` names them).
    @Test(arguments: [
        ("SELECT 1 FROM users WHERE app_id = 'a' AND user_id = 'u'", "PRIMARY KEY"),
        ("SELECT 1 FROM session_tokens WHERE app_id = 'a' AND user_id = 'u'", "session_tokens_on_user"),
        ("SELECT 1 FROM logged_users WHERE app_id = 'a' AND user_id = 'u'", "PRIMARY KEY"),
    ])
    func probesOfAUserUseAnIndexOnTheUser(query: String, index: String) async throws {
        let db = try TemporaryDatabase()
        let store = try db.open()
        let plan = try await store.pool.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + query).map { $0["detail"] as String }
        }
        #expect(plan.contains { $0.contains(index) && $0.contains("user_id=?") }, "\(plan)")
        #expect(!plan.contains { $0.hasPrefix("SCAN") }, "\(plan)")
    }

    /// Every index on the tables an accepted event writes costs every webhook commit a page or
    /// more in the WAL and the checkpoint; these are all of them (erasure, which would want one by
    /// user or sender, scans instead: migrations v11, v12). Each is appended to in time order (per
    /// app at most): none takes a random page per row (none on skips by app: v18). (`logged_users`,
    /// its own key only, is written for a sender or member the log never named before.)
    @Test func anAcceptedEventWritesOnlyTheseIndexes() async throws {
        let db = try TemporaryDatabase()
        let store = try db.open()
        let indexes = try await store.pool.read { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT tbl_name || '.' || name FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL
                    AND tbl_name IN ('events', 'event_payloads', 'decisions', 'deliveries', 'delivery_payloads', 'packed_payloads')
                    ORDER BY 1
                    """)
        }
        #expect(
            indexes == [
                "decisions.decisions_on_created", "deliveries.deliveries_due_by_app",
                "deliveries.deliveries_in_flight",
                "deliveries.deliveries_on_message", "events.events_on_created",
            ])
    }

    @Test(arguments: StoreKind.allCases) func dataIsScopedPerApp(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let store = try await db.open()
        _ = try await store.registerToken(app: "A", user: "u", token: hexToken(1), isUnique: false)
        _ = try await store.registerToken(app: "B", user: "u", token: hexToken(1), isUnique: false)
        try await store.updatePreferences(app: "A", user: "u") { $0.pushTriggerOption = .off }
        try await store.setPushTemplateName(app: "A", user: "u", .alternative)

        #expect(try await store.owner(app: "A", token: hexToken(1)) == "u")
        #expect(try await store.owner(app: "B", token: hexToken(1)) == "u")
        #expect(try await store.preferences(app: "B", user: "u") == .defaults)
        #expect(try await store.pushTemplateName(app: "B", user: "u") == .default)
        #expect(try await store.tokens(app: "C", user: "u") == nil)

        try await store.removeAllTokens(app: "A", user: "u")
        #expect(try await store.tokens(app: "B", user: "u")?.count == 1)
    }

    /// Many concurrent writers and readers: nothing lost, nothing torn, no `SQLITE_BUSY` (nor, on
    /// PostgreSQL, a lost update or a unique violation between concurrent registrations).
    @Test(arguments: StoreKind.allCases) func concurrentWritersAndReaders(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let store = try await db.open()
        let limit = PushStoreConfiguration().maximumTokensPerUser
        let users = 8, tokensPerUser = 12
        try await withThrowingTaskGroup(of: Void.self) { group in
            for u in 0..<users {
                for t in 0..<tokensPerUser {
                    group.addTask {
                        _ = try await store.registerToken(app: "A", user: "user\(u)", token: hexToken(u * 1000 + t), isUnique: false)
                    }
                    group.addTask {
                        // Readers see a consistent count at any moment: never more than the limit.
                        let count = try await store.tokens(app: "A", user: "user\(u)")?.count ?? 0
                        #expect(count <= limit)
                    }
                }
                // Concurrent partial updates of one user's preferences must not lose each other.
                for b in 0..<10 {
                    group.addTask {
                        try await store.updatePreferences(app: "A", user: "user\(u)") { $0.pushBlockedBotIDs.append("bot\(b)") }
                    }
                }
            }
            try await group.waitForAll()
        }
        for u in 0..<users {
            let tokens = try #require(try await store.tokens(app: "A", user: "user\(u)"))
            #expect(Set(tokens.map(\.token)) == Set((0..<tokensPerUser).map { hexToken(u * 1000 + $0) }))
            let prefs = try #require(try await store.preferences(app: "A", user: "user\(u)"))
            #expect(Set(prefs.pushBlockedBotIDs) == Set((0..<10).map { "bot\($0)" }))
        }
    }

    /// A read completes while a write transaction is still open, and sees the state before that
    /// write (SQLite: WAL and a pool of readers; PostgreSQL: MVCC).
    @Test(arguments: StoreKind.allCases) func readsDoNotWaitForWrites(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let store = try await db.open()
        _ = try await store.registerToken(app: "A", user: "u", token: hexToken(1), isUnique: false)

        switch store {
        case let store as SQLiteStore:
            let release = DispatchSemaphore(value: 0)
            let writeFinished = Mutex(false)
            let (entered, enteredContinuation) = AsyncStream<Void>.makeStream()
            let writer = Task {
                try await store.pool.write { db in
                    try db.execute(sql: "DELETE FROM device_tokens")
                    enteredContinuation.yield()
                    // Blocks GRDB's writer thread (not the test's executor) until the read is done;
                    // the deadline only bounds a failing run.
                    _ = release.wait(timeout: .now() + 30)
                }
                writeFinished.withLock { $0 = true }
            }
            var iterator = entered.makeAsyncIterator()
            await iterator.next()

            let seen = try await store.tokens(app: "A", user: "u")
            #expect(writeFinished.withLock { $0 } == false, "the read waited for the write")
            #expect(seen?.map(\.token) == [hexToken(1)])

            release.signal()
            try await writer.value
        case let store as PostgresStore:
            // The write's transaction stays open on a connection of its own while the store reads.
            try await store.client.withConnection { connection in
                try await connection.run("BEGIN", logger: store.logger)
                try await connection.run("DELETE FROM device_tokens", logger: store.logger)
                let seen = try await store.tokens(app: "A", user: "u")
                #expect(seen?.map(\.token) == [hexToken(1)])
                try await connection.run("COMMIT", logger: store.logger)
            }
        default:
            Issue.record("unknown store \(type(of: store))")
        }
        #expect(try await store.tokens(app: "A", user: "u") == [])
    }
}
