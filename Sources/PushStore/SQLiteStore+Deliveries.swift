import GRDB
import StoreContract
import UUIDText

extension SQLiteStore {
    /// Claims due deliveries app by app: each app gets at most `roomByApp(app)` (an app absent
    /// from it: `defaultRoom`), `limit` in all. Apps are served in turn, starting `rotation`
    /// places into the list of apps with pending deliveries, so when the limit runs out it is a
    /// different app's turn to be cut short each time. Costs one index probe per app with
    /// pending deliveries plus the rows claimed, whatever the backlog.
    public func claimDue(
        nowMs: Int64, limit: Int, roomByApp: [String: Int], defaultRoom: Int,
        rotation: Int
    ) async throws -> DueClaim {
        guard limit > 0 else { return DueClaim(records: [], exhausted: false) }
        return try await queueWrite { db in
            // The distinct app ids of pending deliveries, one index probe each (a loose index scan).
            let apps = try String.fetchAll(
                db.cachedStatement(sql: Self.pendingApps + " SELECT app FROM pending_apps WHERE app IS NOT NULL"))
            guard !apps.isEmpty else { return DueClaim(records: [], exhausted: true) }
            let due = try db.cachedStatement(
                sql: """
                    SELECT \(DeliveryRecord.columns), p.payload, p.spans, t.configuration, n.collapse_key
                    FROM deliveries d LEFT JOIN delivery_payloads p ON p.delivery_id = d.id
                    LEFT JOIN device_tokens t ON t.app_id = d.app_id AND t.token = d.device_token
                    LEFT JOIN notifications n ON d.message_id < 0 AND n.id = -d.message_id
                    WHERE d.state = 'pending' AND d.app_id = ? AND d.next_attempt_at_ms <= ?
                    ORDER BY d.next_attempt_at_ms, d.id LIMIT ?
                    """)
            var claimed: [DeliveryRecord] = []
            var payloads = try StoredPayloadReader(db)
            // Whether some app may have more due than it got (its room, or the limit, cut it short).
            var cut = false
            let start = rotation % apps.count
            for offset in apps.indices {
                let app = apps[(start + offset) % apps.count]
                let room = min(roomByApp[app] ?? defaultRoom, limit - claimed.count)
                guard room > 0 else { cut = true; continue }
                let query = RawStatement(due)
                query.bind(1, app)
                query.bind(2, nowMs)
                query.bind(3, room)
                let before = claimed.count
                try query.forEachRow { row in
                    let payload = try payloads.payload(
                        row, alone: 18, spans: 19, app: app, messageID: row.int64(2), deliveryID: row.int64(0))
                    var record = try DeliveryRecord(row, payload: payload)
                    record.configuration = row.optionalString(20)
                    record.collapseKey = row.optionalString(21)
                    claimed.append(record)
                }
                if claimed.count - before == room { cut = true }
            }
            guard !claimed.isEmpty else { return DueClaim(records: [], exhausted: !cut) }
            let mark = try db.cachedStatement(
                sql: """
                    UPDATE deliveries SET state = 'in_flight', updated_at_ms = ? WHERE id IN (SELECT value FROM json_each(?))
                    """)
            try mark.execute(arguments: [nowMs, "[" + claimed.map { String($0.id) }.joined(separator: ",") + "]"])
            return DueClaim(
                records: claimed.map {
                    var record = $0; record.state = .inFlight; record.updatedAtMs = nowMs; return record
                },
                exhausted: !cut)
        }
    }

    /// `pending_apps`: the distinct app ids of pending deliveries, one probe of
    /// `deliveries_due_by_app` each (a loose index scan), whatever the backlog.
    private static let pendingApps = """
        WITH RECURSIVE pending_apps(app) AS (
            SELECT MIN(app_id) FROM deliveries WHERE state = 'pending'
            UNION ALL
            SELECT (SELECT MIN(app_id) FROM deliveries WHERE state = 'pending' AND app_id > app)
            FROM pending_apps WHERE app IS NOT NULL
        )
        """

    /// When the earliest pending delivery is due; nil when none is pending.
    public func nextDueAtMs() async throws -> Int64? {
        try await pool.read { db in
            // Each app's earliest from the front of its part of `deliveries_due_by_app`: one
            // index probe per app with pending deliveries, as in `claimDue`.
            try Int64.fetchOne(
                db.cachedStatement(
                    sql: Self.pendingApps + """
                         SELECT MIN((SELECT MIN(next_attempt_at_ms) FROM deliveries WHERE state = 'pending' AND app_id = app))
                        FROM pending_apps WHERE app IS NOT NULL
                        """))
        }
    }

    /// Records outcomes (state, attempt log, token removals and configuration moves) in one
    /// transaction. Returns how many tokens were removed.
    @discardableResult
    public func recordOutcomes(_ outcomes: [DeliveryOutcome]) async throws -> Int {
        guard !outcomes.isEmpty else { return 0 }
        // Removing a token (or moving it to another configuration) is a registry write of its app
        // (it invalidates the app's part of the webhook's recipient cache): the apps it happened
        // to come back with the count.
        let removesTokens = outcomes.contains(where: \.changesToken)
        let record: @Sendable (Database) throws -> (removed: Int, apps: Set<String>) = { db in
            let set = """
                UPDATE deliveries SET state = ?, attempts = attempts + ?, next_attempt_at_ms = COALESCE(?, next_attempt_at_ms),
                    last_status = COALESCE(?, last_status), last_reason = COALESCE(?, last_reason),
                    sent_at_ms = COALESCE(?, sent_at_ms), updated_at_ms = ?, message_name = COALESCE(?, message_name)
                WHERE id = ?
                """
            // The app and token come back only when a token is to be changed: RETURNING makes
            // SQLite buffer the rows, and reading them made two strings per push (most pushes).
            let update = try db.cachedStatement(sql: set)
            let updateReturning = try db.cachedStatement(sql: set + " RETURNING app_id, device_token")
            let attempt = try db.cachedStatement(
                sql: """
                    INSERT INTO delivery_attempts (delivery_id, at_ms, status, reason, error, push_id) VALUES (?, ?, ?, ?, ?, ?)
                    """)
            var removed = 0
            var apps: Set<String> = []
            for outcome in outcomes {
                let a = outcome.attempt
                let change = RawStatement(outcome.changesToken ? updateReturning : update)
                change.bind(1, outcome.state.rawValue)
                change.bind(2, a == nil ? 0 : 1)
                change.bind(3, outcome.nextAttemptAtMs)
                change.bind(4, a?.status)
                change.bind(5, a?.reason ?? a?.error)
                change.bind(6, outcome.state == .sent ? outcome.atMs : nil)
                change.bind(7, outcome.atMs)
                change.bind(8, outcome.providerMessageID)
                change.bind(9, outcome.deliveryID)
                var target: (app: String, token: String)?
                if !outcome.changesToken {
                    guard try change.run() > 0 else { continue }  // pruned meanwhile
                } else {
                    try change.forEachRow { row in target = (row.string(0), row.string(1)) }
                    guard target != nil else { continue }  // pruned meanwhile
                }
                // `AttemptLog`: a plain acceptance is the delivery row itself.
                if let a = outcome.loggedAttempt {
                    let log = RawStatement(attempt)
                    log.bind(1, outcome.deliveryID)
                    log.bind(2, a.atMs)
                    log.bind(3, a.status)
                    log.bind(4, a.reason)
                    log.bind(5, a.error)
                    log.bind(6, UUIDText.lowercase(a.pushID))
                    try log.run()
                }
                guard let (app, token) = target else { continue }
                apps.insert(app)
                if let configuration = outcome.tokenConfiguration {
                    try db.execute(
                        sql: "UPDATE device_tokens SET configuration = ? WHERE app_id = ? AND token = ?",
                        arguments: [configuration, app, token])
                }
                switch outcome.tokenRemoval {
                case .ifRegisteredBefore(let ms)?: removed += try Self.removeDeadToken(app: app, token: token, registeredBefore: ms, db)
                case .always?: removed += try Self.removeDeadToken(app: app, token: token, registeredBefore: .max, db)
                case nil: break
                }
            }
            return (removed, apps)
        }
        guard removesTokens else { return try await queueWrite(record).removed }
        var touched: Set<String> = []
        defer { for app in touched { recipientCache.invalidate(app: app) } }
        let (removed, apps) = try await pool.write(record)
        touched = apps
        return removed
    }

    /// Removes a token the provider called dead wherever it is registered (a device's, a Live
    /// Activity's push-to-start or update token, a broadcast channel), unless registered since
    /// `registeredBefore`.
    private static func removeDeadToken(app: String, token: String, registeredBefore ms: Int64, _ db: Database) throws -> Int {
        var removed = 0
        for sql in [
            "DELETE FROM device_tokens WHERE app_id = ? AND token = ? AND registered_at < ?",
            "DELETE FROM live_activity_start_tokens WHERE app_id = ? AND token = ? AND registered_at < ?",
            "UPDATE live_activities SET update_token = NULL WHERE app_id = ? AND update_token = ? AND token_registered_at < ?",
        ] {
            try db.execute(sql: sql, arguments: [app, token, ms])
            removed += db.changesCount
        }
        // A broadcast channel APNs no longer knows (it has no registration time).
        try db.execute(sql: "DELETE FROM broadcast_channels WHERE app_id = ? AND channel_id = ?", arguments: [app, token])
        return removed + db.changesCount
    }

    /// Puts deliveries a crash left in flight back to pending (same apns-id, same attempts).
    /// Call once at start, before the dispatcher claims anything. Returns how many.
    @discardableResult
    public func resumeInFlight() async throws -> Int {
        try await pool.write { db in
            try db.execute(sql: "UPDATE deliveries SET state = 'pending' WHERE state = 'in_flight'")
            return db.changesCount
        }
    }

    /// Puts in-flight deliveries back to pending, due now (e.g. handed to a dispatcher that had
    /// stopped). Others are left alone.
    public func requeue(ids: [Int64]) async throws {
        guard !ids.isEmpty else { return }
        let list = "[" + ids.map(String.init).joined(separator: ",") + "]"
        let now = clock()
        try await queueWrite { db in
            try db.execute(
                sql: """
                    UPDATE deliveries SET state = 'pending', next_attempt_at_ms = ?, updated_at_ms = ?
                    WHERE state = 'in_flight' AND id IN (SELECT value FROM json_each(?))
                    """, arguments: [now, now, list])
        }
    }

    /// Unsent deliveries (pending or in flight) per app: read once at start, after which the
    /// dispatcher counts them in memory (`BacklogLedger`).
    public func unsentCountsByApp() async throws -> [String: Int] {
        try await pool.read { db in
            var counts: [String: Int] = [:]
            for row in try Row.fetchAll(
                db,
                sql: """
                    SELECT app_id, COUNT(*) AS n FROM (\(Self.unsentRows("app_id"))) GROUP BY app_id
                    """)
            {
                counts[row["app_id"]] = row["n"]
            }
            return counts
        }
    }

    /// Unsent deliveries (pending or in flight) by the second they were created: seeds the age of
    /// the oldest unsent push at start (one scan of the unsent rows).
    public func unsentCountsBySecond() async throws -> [Int64: Int] {
        try await pool.read { db in
            var counts: [Int64: Int] = [:]
            for row in try Row.fetchAll(
                db,
                sql: """
                    SELECT created_at_ms / 1000 AS s, COUNT(*) AS n FROM (\(Self.unsentRows("created_at_ms"))) GROUP BY s
                    """)
            {
                counts[row["s"]] = row["n"]
            }
            return counts
        }
    }

    /// `column` of every unsent delivery, one state at a time: each `state = …` is answered from
    /// its partial index, where `state IN (…)` scanned every delivery ever kept (5.7 s at 10M
    /// rows, before the dispatcher could start).
    private static func unsentRows(_ column: String) -> String {
        """
        SELECT \(column) FROM deliveries WHERE state = 'pending' UNION ALL SELECT \(column) FROM deliveries WHERE state = 'in_flight'
        """
    }

    /// Deliveries waiting to be sent (pending or in flight).
    public func pendingCount() async throws -> Int {
        try await pool.read { db in
            // Two counts, so each is answered from its partial index.
            try Int.fetchOne(
                db,
                sql: """
                    SELECT (SELECT COUNT(*) FROM deliveries WHERE state = 'pending')
                         + (SELECT COUNT(*) FROM deliveries WHERE state = 'in_flight')
                    """) ?? 0
        }
    }

    /// Deliveries in each state (for tests and operators).
    public func deliveryStateCounts() async throws -> [DeliveryState: Int] {
        try await pool.read { db in
            var counts: [DeliveryState: Int] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT state, COUNT(*) AS n FROM deliveries GROUP BY state") {
                counts[DeliveryState(rawValue: row["state"])] = row["n"]
            }
            return counts
        }
    }

    /// Deletes events, decisions and finished deliveries (with their attempts) created before
    /// `cutoffMs`. Unfinished deliveries are kept whatever their age. An event pruned this way
    /// is no longer deduplicated; keep the age well above any webhook redelivery window.
    /// Returns how many deliveries were deleted.
    ///
    /// Works in transactions of at most `batch` rows each: SQLite has one writer, and one
    /// transaction over an hour of deliveries (millions of rows, 18.6 s per million measured by
    /// `scripts/bench-costs.sh`) held every webhook commit and outcome record behind it.
    @discardableResult
    public func prune(olderThanMs cutoffMs: Int64, batch: Int) async throws -> Int {
        let batch = max(1, batch)
        var deleted = 0
        // Ids follow the order deliveries were accepted in, so the walk goes by id (the table
        // itself, no index) and stops at the first delivery created at or after the cutoff.
        // Creation times are taken just before the commit that assigns the id, so one a little
        // out of order near the cutoff (or after the clock stepped back) waits for the next run.
        // Old unfinished deliveries are passed over once per run, not once per batch. A delivery
        // stamped later than now (by a clock that was ahead) cannot say where the recent ones
        // start, so it is passed over too instead of stopping every run until its time comes.
        let now = clock()
        var after = Int64.min
        while true {
            let from = after
            let (count, last, done) = try await queueWrite { db -> (Int, Int64, Bool) in
                let rows = try Row.fetchAll(
                    db.cachedStatement(
                        sql: "SELECT id, created_at_ms, state, app_id, message_id FROM deliveries WHERE id > ? ORDER BY id LIMIT ?"),
                    arguments: [from, batch])
                var doomed: [Int64] = []
                var events = Set<EventKey>()
                var last = from
                var reachedCutoff = false
                for row in rows {
                    let createdAtMs: Int64 = row[1]
                    guard createdAtMs < cutoffMs else {
                        if createdAtMs > now {
                            last = row[0]
                            continue
                        }
                        reachedCutoff = true
                        break
                    }
                    last = row[0]
                    let state: String = row[2]
                    guard state != DeliveryState.pending.rawValue, state != DeliveryState.inFlight.rawValue else { continue }
                    doomed.append(row[0])
                    events.insert(EventKey(app: row[3], messageID: row[4]))
                }
                if !doomed.isEmpty {
                    let list = "[" + doomed.map(String.init).joined(separator: ",") + "]"
                    for table in ["delivery_payloads", "delivery_attempts"] {
                        try db.execute(sql: "DELETE FROM \(table) WHERE delivery_id IN (SELECT value FROM json_each(?))", arguments: [list])
                    }
                    try db.execute(sql: "DELETE FROM deliveries WHERE id IN (SELECT value FROM json_each(?))", arguments: [list])
                    try Self.dropPackedPayloads(from: doomed[0], through: doomed[doomed.count - 1], db)
                    for event in events { try Self.dropSharedPayload(of: event.app, messageID: event.messageID, db) }
                }
                return (doomed.count, last, reachedCutoff || rows.count < batch)
            }
            deleted += count
            if done { break }
            after = last
        }
        // WITHOUT ROWID: rows are named by their primary key.
        while try await queueWrite({ db in
            try db.execute(
                sql: """
                    DELETE FROM decisions WHERE (app_id, message_id, user_id) IN
                        (SELECT app_id, message_id, user_id FROM decisions WHERE created_at_ms < ? LIMIT ?)
                    """, arguments: [cutoffMs, batch])
            return db.changesCount
        }) >= batch {}
        while try await queueWrite({ db in
            let events = try Row.fetchAll(
                db, sql: "SELECT app_id, message_id FROM events WHERE created_at_ms < ? LIMIT ?", arguments: [cutoffMs, batch])
            for event in events {
                try db.cachedStatement(sql: "DELETE FROM events WHERE app_id = ? AND message_id = ?").execute(
                    arguments: [event[0], event[1]])
                // Its shared payload bytes go too, unless a delivery still needs them (they go
                // with that delivery's batch above, in a later prune).
                try Self.dropSharedPayload(of: event[0], messageID: event[1], db)
            }
            return events.count
        }) >= batch {}
        return deleted
    }

    private struct EventKey: Hashable {
        var app: String
        var messageID: Int64
    }

    /// Deletes the event's shared payload bytes (`event_payloads`) once no delivery of it is left.
    private static func dropSharedPayload(of app: String, messageID: Int64, _ db: Database) throws {
        try db.cachedStatement(
            sql: """
                DELETE FROM event_payloads WHERE app_id = ?1 AND message_id = ?2
                    AND NOT EXISTS (SELECT 1 FROM deliveries WHERE app_id = ?1 AND message_id = ?2)
                """
        ).execute(arguments: [app, messageID])
    }

    /// Deletes the `packed_payloads` rows holding deliveries `from...through` (ids in order) once
    /// none of their deliveries is left: one probe for the row holding `from`, then the rows
    /// starting up to `through`, each checked by one range probe of `deliveries`.
    private static func dropPackedPayloads(from: Int64, through: Int64, _ db: Database) throws {
        let start =
            try Int64.fetchOne(
                db.cachedStatement(
                    sql:
                        "SELECT first_delivery_id FROM packed_payloads WHERE first_delivery_id <= ? ORDER BY first_delivery_id DESC LIMIT 1"
                ),
                arguments: [from]) ?? from
        try db.cachedStatement(
            sql: """
                DELETE FROM packed_payloads WHERE first_delivery_id BETWEEN ? AND ?
                    AND NOT EXISTS (
                        SELECT 1 FROM deliveries WHERE id BETWEEN packed_payloads.first_delivery_id AND packed_payloads.last_delivery_id)
                """
        ).execute(arguments: [start, through])
    }

    /// The writer's `PRAGMA synchronous` (2 FULL, 1 NORMAL), to check `durability`.
    public func synchronousSetting() async throws -> Int {
        try await pool.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1 }
    }
}
