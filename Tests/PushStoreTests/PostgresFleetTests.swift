import Foundation
import PushCore
import TestSupport
import Testing
@testable import PushStore
@testable import StoreContract
@testable import PushStorePostgres

/// Several relays on one PostgreSQL database: what sharing the store must guarantee. Each test
/// has a database of its own and two stores on it with different node ids, as two relays would.
@Suite(.timeLimit(.minutes(5))) struct PostgresFleetTests {
    struct Fleet {
        let db: TestDatabase
        let clock: ManualClock
        let a: PostgresStore
        let b: PostgresStore
    }

    func fleet(clock: ManualClock = ManualClock()) async throws -> Fleet {
        let db = try await TestDatabase.make(.postgres)
        return Fleet(
            db: db, clock: clock, a: try await db.openPostgres(clock: clock, nodeID: "a"),
            b: try await db.openPostgres(clock: clock, nodeID: "b"))
    }

    static func event(_ messageID: Int64, app: String = "app", users: Int = 1, at: Int64 = 1_700_000_000_000) -> AcceptedEvent {
        AcceptedEvent(
            appID: app, messageID: messageID, channelURL: "c", acceptedAtMs: at,
            decisions: [RecipientDecisionRecord(userID: "zed", decision: .skip(.online))],
            deliveries: (0..<users).map { n in
                NewDelivery(
                    userID: "u\(n)", deviceToken: hexToken(n + 1), payload: Data(#"{"aps":{}}"#.utf8), pushID: UUID(), provider: .apns,
                    pushType: "alert",
                    priority: 10, expiresAtMs: .max)
            })
    }

    /// Polls `condition` every 20 ms until it holds or `seconds` pass: waiting on a condition,
    /// never sleeping a guessed time.
    func waitUntil(within seconds: Double = 10, _ condition: () async throws -> Bool) async rethrows -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while ContinuousClock.now < deadline {
            if try await condition() { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return try await condition()
    }

    /// Each relay of the fleet sees how many are connected (its pool's and its LISTEN
    /// connection's application names), and a relay that closes is no longer counted.
    @Test func eachRelaySeesTheRelaysConnected() async throws {
        let fleet = try await fleet()
        #expect(try await fleet.a.connectedNodes() == 2)
        #expect(try await fleet.b.connectedNodes() == 2)
        let c = try await fleet.db.openPostgres(clock: fleet.clock, nodeID: "relay c")
        #expect(try await fleet.a.connectedNodes() == 3, "a node id with a space is one node")
        try await c.close()
        // The server ends a closed connection's session a moment after the client has gone.
        #expect(try await waitUntil { try await fleet.a.connectedNodes() == 2 })
        let file = try await TestDatabase.make(.sqlite)
        let sqlite = try await file.open()
        #expect(try await sqlite.connectedNodes() == nil, "no fleet on SQLite")
    }

    @Test func relaysStartingAtOnceApplyTheMigrationsOnce() async throws {
        let db = try await TestDatabase.make(.postgres)
        async let a = db.openPostgres(nodeID: "a")
        async let b = db.openPostgres(nodeID: "b")
        let stores = try await [a, b]
        for store in stores { #expect(try await store.appliedMigrations() == db.migrations) }
        #expect(try await db.count("SELECT COUNT(*) FROM pushrelay_migrations") == db.migrations.count)
    }

    /// The events' primary key is the webhook dedupe across the fleet: an event retried to
    /// another relay inserts nothing there, even when both commit at the same moment.
    @Test func anEventCommittedOnTwoRelaysIsNewOnlyOnce() async throws {
        let fleet = try await fleet()
        let ids = try #require(try await fleet.a.commitEvents([Self.event(1, users: 2)])[0])
        #expect(ids.count == 2)
        #expect(try await fleet.b.commitEvents([Self.event(1, users: 2)]) == [nil])

        let committers = [EventCommitter(store: fleet.a), EventCommitter(store: fleet.b)]
        let results = try await withThrowingTaskGroup(of: Bool.self) { group in
            for n in 0..<80 { group.addTask { try await committers[n % 2].accept(Self.event(Int64(100 + n / 2), users: 2)) } }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results.filter { $0 }.count == 40)
        #expect(try await fleet.a.pendingCount() == 2 + 80)
        #expect(try await fleet.db.count("SELECT COUNT(*) FROM decisions") == 41)
    }

    /// Claims on two relays at once never return the same delivery, and together take them all.
    @Test func concurrentClaimsOnTwoRelaysNeverShareADelivery() async throws {
        let fleet = try await fleet()
        var all: Set<Int64> = []
        for (n, app) in ["x", "y", "z"].enumerated() {
            for ids in try await fleet.a.commitEvents((0..<8).map { Self.event(Int64(n * 100 + $0), app: app, users: 5) }) {
                all.formUnion(try #require(ids))
            }
        }
        #expect(all.count == 120)
        func drain(_ store: PostgresStore) async throws -> [Int64] {
            var claimed: [Int64] = []
            for round in 0..<200 {
                let claim = try await store.claimDue(nowMs: .max, limit: 7, roomByApp: [:], defaultRoom: 3, rotation: round)
                claimed += claim.records.map(\.id)
                if claim.records.isEmpty, try await store.deliveryStateCounts()[.pending] == nil { break }
            }
            return claimed
        }
        async let byA = drain(fleet.a)
        async let byB = drain(fleet.b)
        let (a, b) = try await (byA, byB)
        #expect(Set(a).count == a.count)
        #expect(Set(b).count == b.count)
        #expect(Set(a).isDisjoint(with: b))
        #expect(Set(a).union(b) == all)
        #expect(try await fleet.db.count("SELECT COUNT(*) FROM deliveries WHERE state = 'in_flight' AND lease_owner = 'a'") == a.count)
        #expect(try await fleet.db.count("SELECT COUNT(*) FROM deliveries WHERE state = 'in_flight' AND lease_owner = 'b'") == b.count)
    }

    /// A relay's claims hold while it renews them; once its lease runs out (it died) another
    /// relay takes them over, same apns-id, and wakes for them when they fall due.
    @Test func anExpiredLeaseIsTakenOverByTheOtherRelay() async throws {
        let fleet = try await fleet()
        let start = fleet.clock.milliseconds
        let event = Self.event(1, users: 2)
        _ = try await fleet.a.commitEvents([event])
        let claimed = try await fleet.a.claimDue(nowMs: .max, limit: 10)
        #expect(claimed.count == 2)
        #expect(try await fleet.b.claimDue(nowMs: .max, limit: 10).isEmpty)
        #expect(try await fleet.b.nextDueAtMs() == start + 60_000 + 1, "b wakes when a's lease runs out")
        #expect(try await fleet.a.nextDueAtMs() == nil, "a's own claims are not due to a")

        fleet.clock.advance(by: 50_000)
        #expect(try await fleet.a.renewClaims(ids: claimed.map(\.id)) == 2)
        fleet.clock.advance(by: 20_000)
        #expect(try await fleet.b.claimDue(nowMs: .max, limit: 10).isEmpty, "renewed at +50 s: held until +110 s")

        fleet.clock.advance(by: 41_000)
        let claim = try await fleet.b.claimDue(nowMs: .max, limit: 10, roomByApp: [:], defaultRoom: 10, rotation: 0)
        #expect(claim.takenOver == 2, "b says it took two over (pushrelay_claims_taken_over_total)")
        let takenOver = claim.records
        #expect(Set(takenOver.map(\.id)) == Set(claimed.map(\.id)))
        #expect(Set(takenOver.map(\.pushID)) == Set(event.deliveries.map(\.pushID)))
        #expect(takenOver.allSatisfy { $0.state == .inFlight && $0.attempts == 0 })
        #expect(try await fleet.db.count("SELECT COUNT(*) FROM deliveries WHERE lease_owner = 'b'") == 2)
        #expect(try await fleet.a.renewClaims(ids: claimed.map(\.id)) == 0, "a lost them")
        #expect(try await fleet.a.resumeInFlight() == 0)
    }

    /// A relay renews only the claims it names (what it holds in memory): one it committed but
    /// never got to send — the commit's answer was lost — runs out and the other relay takes it.
    @Test func aClaimTheRelayNoLongerHoldsRunsOutAndIsTakenOver() async throws {
        let fleet = try await fleet()
        var lostAnswer = Self.event(1, users: 2)
        lostAnswer.handedOff = true
        _ = try await fleet.a.commitEvents([lostAnswer, Self.event(2, users: 1)])
        let held = try await fleet.a.claimDue(nowMs: .max, limit: 10)
        #expect(held.count == 1)

        fleet.clock.advance(by: 50_000)
        #expect(try await fleet.a.renewClaims(ids: held.map(\.id)) == 1)
        #expect(try await fleet.a.renewClaims(ids: []) == 0)
        fleet.clock.advance(by: 11_000)
        let takenOver = try await fleet.b.claimDue(nowMs: .max, limit: 10)
        #expect(Set(takenOver.map(\.pushID)) == Set(lostAnswer.deliveries.map(\.pushID)), "the unheld hand-offs, not a's claim")
    }

    /// A rolling upgrade: the new release's relay migrates the database (additive changes only)
    /// while the previous release's relays still run on it. An older relay opens a database with
    /// migrations it does not know, lists them, and goes on accepting and claiming.
    @Test func aRelayRunsOnADatabaseANewerReleaseMigrated() async throws {
        let fleet = try await fleet()
        let (cluster, database) = try #require(fleet.db.postgresDatabase)
        _ = try await cluster.psql(
            database: database,
            """
            ALTER TABLE deliveries ADD COLUMN future_note text;
            CREATE TABLE future_things (id bigint PRIMARY KEY);
            INSERT INTO pushrelay_migrations (name, applied_at_ms) VALUES ('v9_future', 0)
            """)
        let older = try await fleet.db.openPostgres(clock: fleet.clock, nodeID: "older")
        #expect(try await older.appliedMigrations() == fleet.db.migrations + ["v9_future"])
        _ = try await older.commitEvents([Self.event(1, users: 2)])
        #expect(try await older.claimDue(nowMs: .max, limit: 10).count == 2)
        #expect(try await fleet.a.commitEvents([Self.event(1, users: 2)]) == [nil], "the new release's relay sees it as a duplicate")
    }

    /// During the roll to `v9_delivery_provider`, a relay of the previous release inserts
    /// deliveries without a provider: they go where their push type said (FCM's and HMS's named
    /// theirs; any other was APNs').
    @Test func deliveriesThePreviousReleaseQueuedKeepTheirProvider() async throws {
        let fleet = try await fleet()
        let (cluster, database) = try #require(fleet.db.postgresDatabase)
        for (n, pushType) in ["alert", "fcm", "hms"].enumerated() {
            _ = try await cluster.psql(
                database: database,
                """
                INSERT INTO deliveries (app_id, message_id, user_id, device_token, apns_id, push_type, priority, expires_at_ms,
                    state, attempts, next_attempt_at_ms, created_at_ms, updated_at_ms)
                VALUES ('app', 0, 'u', 't\(n)', '00000000-0000-4000-8000-00000000000\(n)', '\(pushType)', 10,
                    9000000000000000, 'pending', 0, \(n), 0, 0);
                INSERT INTO delivery_payloads (delivery_id, payload) SELECT max(id), '\\x7b7d' FROM deliveries
                """)
        }
        let claimed = try await fleet.a.claimDue(nowMs: 10, limit: 10).sorted { $0.nextAttemptAtMs < $1.nextAttemptAtMs }
        #expect(claimed.map(\.provider) == [.apns, .fcm, .hms])
    }

    /// `resumeInFlight` at a relay's start takes back only its own claims (and hand-offs); the
    /// other relay's are still its own.
    @Test func resumeInFlightTouchesOnlyItsOwnRelaysDeliveries() async throws {
        let fleet = try await fleet()
        _ = try await fleet.a.commitEvents([Self.event(1, users: 4)])
        var handedOff = Self.event(2, users: 2)
        handedOff.handedOff = true
        _ = try await fleet.a.commitEvents([handedOff])
        let byA = try await fleet.a.claimDue(nowMs: .max, limit: 2)
        let byB = try await fleet.b.claimDue(nowMs: .max, limit: 2)
        #expect(byA.count == 2)
        #expect(byB.count == 2)

        #expect(try await fleet.a.resumeInFlight() == 4, "two claims and two hand-offs")
        #expect(try await fleet.db.count("SELECT COUNT(*) FROM deliveries WHERE state = 'in_flight' AND lease_owner = 'b'") == 2)
        #expect(try await fleet.b.claimDue(nowMs: .max, limit: 10, roomByApp: [:], defaultRoom: 10, rotation: 0).records.count == 4)
        #expect(try await fleet.a.claimDue(nowMs: .max, limit: 10).isEmpty)
        #expect(try await fleet.b.resumeInFlight() == 6)
    }

    /// A registry write on one relay empties the other's recipient cache (NOTIFY/LISTEN), and a
    /// lost LISTEN connection never leaves a stale cache in use: the cache is off until LISTEN is
    /// back, and emptied then.
    @Test func aRegistryWriteOnOneRelayIsSeenByTheOthersNextRead() async throws {
        let fleet = try await fleet()
        let b = fleet.b
        func tokens() async throws -> [String]? {
            try await b.recipientStatesAndTemplates(app: "A", users: ["u"], channel: "c").states["u"]?.tokens.map(\.token)
        }
        _ = try await fleet.a.registerToken(app: "A", user: "u", token: hexToken(1), isUnique: false)
        #expect(await waitUntil { b.registry.isListening })
        #expect(try await tokens() == [hexToken(1)])
        // Cached once no notification is on its way any more (a's write above sent one).
        #expect(
            try await waitUntil {
                _ = try await tokens()
                return b.recipientCache.lookUp(app: "A", users: ["u"]).missing.isEmpty
            }, "b caches while it listens")

        let before = b.recipientCache.version(app: "A").app
        _ = try await fleet.a.registerToken(app: "A", user: "u", token: hexToken(2), isUnique: false)
        #expect(try await waitUntil { try await tokens() == [hexToken(1), hexToken(2)] })
        #expect(b.recipientCache.version(app: "A").app > before, "A's entries forgotten at a's notification")

        // A write no relay announces (by hand), then b's LISTEN connection dies.
        let (cluster, database) = try #require(fleet.db.postgresDatabase)
        let listener = try await cluster.psql(
            database: database,
            "SELECT pid FROM pg_stat_activity WHERE application_name = 'push-relay b listen' AND datname = current_database()")
        _ = try await cluster.psql(
            database: database,
            """
            INSERT INTO device_tokens (app_id, token, user_id, registered_at) VALUES ('A', '\(hexToken(3))', 'u', \(Int64.max));
            SELECT pg_terminate_backend(pid) FROM pg_stat_activity
            WHERE application_name = 'push-relay b listen' AND datname = current_database()
            """)
        #expect(try await waitUntil { try await tokens() == [hexToken(1), hexToken(2), hexToken(3)] })
        #expect(
            try await waitUntil {
                let now = try await cluster.psql(
                    database: database,
                    "SELECT pid FROM pg_stat_activity WHERE application_name = 'push-relay b listen' AND datname = current_database()")
                return b.registry.isListening && !now.isEmpty && now != listener
            }, "listening again, on a new connection")
    }

    /// Both relays prune at once: one at a time holds the lock, the other stops, and every old
    /// finished row is deleted exactly once.
    @Test func pruningOnTwoRelaysAtOnceDeletesEverythingOnce() async throws {
        let fleet = try await fleet()
        _ = try await fleet.a.commitEvents((0..<30).map { Self.event(Int64($0), users: 2, at: 1_000) })
        _ = try await fleet.a.commitEvents([Self.event(99, users: 1, at: 5_000)])
        let claimed = try await fleet.a.claimDue(nowMs: 1_000, limit: 100)
        #expect(claimed.count == 60)
        try await fleet.a.recordOutcomes(claimed.map { DeliveryOutcome(deliveryID: $0.id, state: .sent, atMs: 1_000, attempt: nil) })

        async let byA = fleet.a.prune(olderThanMs: 2_000, batch: 4)
        async let byB = fleet.b.prune(olderThanMs: 2_000, batch: 4)
        let (a, b) = try await (byA, byB)
        #expect(a + b == 60)
        #expect(try await fleet.db.count("SELECT COUNT(*) FROM deliveries") == 1)
        #expect(try await fleet.db.count("SELECT COUNT(*) FROM delivery_payloads") == 1)
        #expect(try await fleet.db.count("SELECT COUNT(*) FROM events") == 1)
        #expect(try await fleet.db.count("SELECT COUNT(*) FROM decisions") == 1)
    }

    /// A connection the server ends in the middle of a transaction (an operator's
    /// `pg_terminate_backend`, a failover) fails that call only: nothing waits for an answer
    /// that cannot come, and the store goes on with new connections.
    @Test func aConnectionEndedMidTransactionFailsOnlyThatCall() async throws {
        let fleet = try await fleet()
        let (cluster, database) = try #require(fleet.db.postgresDatabase)
        await #expect(throws: (any Error).self) {
            try await fleet.a.transaction { connection in
                let pid = try await connection.value("SELECT pg_backend_pid()", as: Int.self, logger: fleet.a.logger) ?? 0
                _ = try await cluster.psql(database: database, "SELECT pg_terminate_backend(\(pid))")
                try await connection.run("SELECT 1", logger: fleet.a.logger)
            }
        }
        do {
            _ = try await fleet.a.registerToken(app: "A", user: "u", token: hexToken(1), isUnique: false)
            #expect(try await fleet.a.tokens(app: "A", user: "u")?.count == 1)
        } catch {
            Issue.record("after the termination: \(String(reflecting: error))")
        }
    }

    /// `checkWritable` answers nil for a healthy primary, and says why not once the database takes
    /// no writes.
    @Test func checkWritableSaysWhyTheDatabaseTakesNoWrites() async throws {
        let fleet = try await fleet()
        #expect(await fleet.a.checkWritable() == nil)
        let (cluster, database) = try #require(fleet.db.postgresDatabase)
        _ = try await cluster.psql(
            database: database,
            """
            ALTER DATABASE \(database) SET default_transaction_read_only = on;
            SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'push-relay a' AND datname = current_database()
            """)
        #expect(await waitUntil { await fleet.a.checkWritable()?.contains("takes no writes") == true })
    }
}
