import PostgresNIO
import StoreContract
import UUIDText

extension PostgresStore {
    /// Claims due deliveries app by app, as `SQLiteStore.claimDue` does (each app at most its room,
    /// `limit` in all, apps served in turn from `rotation`), in one transaction, leasing each
    /// claimed delivery to this relay until `leaseDuration` from now.
    ///
    /// Several relays claim at once: each app's batch is taken with `FOR UPDATE SKIP LOCKED` and
    /// marked in flight in the same statement, so no delivery is claimed twice and nobody waits for
    /// another's claim. First, deliveries whose lease ran out (a relay that died) go back to
    /// pending (`deliveries_in_flight` makes that one index probe when there are none); the same
    /// statement lists the apps with pending deliveries by a loose index scan of
    /// `deliveries_due_by_app`, one probe per app.
    public func claimDue(
        nowMs: Int64, limit: Int, roomByApp: [String: Int], defaultRoom: Int,
        rotation: Int
    ) async throws -> DueClaim {
        guard limit > 0 else { return DueClaim(records: [], exhausted: false) }
        // Leases run on the store's clock, never the caller's `nowMs` (which may be far ahead to
        // mean "everything due"): every relay compares them with its own wall clock.
        let leaseNow = clock()
        let leaseUntil = WallClock.adding(configuration.leaseMilliseconds, to: leaseNow)
        return try await transaction { connection in
            // Each app with deliveries to claim, and how many the sweep took over (on every row).
            let rows = try await connection.rows(
                """
                WITH RECURSIVE swept AS (
                    \(unescaped: Self.sweepExpiredLeases) \(leaseNow) RETURNING app_id
                ), pending_apps(app) AS (
                    (SELECT app_id FROM deliveries WHERE state = 'pending' ORDER BY app_id LIMIT 1)
                    UNION ALL
                    SELECT (SELECT app_id FROM deliveries WHERE state = 'pending' AND app_id > pending_apps.app ORDER BY app_id LIMIT 1)
                    FROM pending_apps WHERE pending_apps.app IS NOT NULL
                )
                SELECT app, (SELECT COUNT(*) FROM swept) FROM (
                    SELECT app FROM pending_apps WHERE app IS NOT NULL
                    UNION
                    SELECT app_id FROM swept
                ) apps
                """, logger: logger
            ) { try $0.decode((String, Int).self) }
            // SQLite's order (bytes, whatever this database's collation), so `rotation` means the same app.
            let apps = rows.map(\.0).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            // Whatever the sweep put back has an app, so it is on every row, or there are none.
            let takenOver = rows.first?.1 ?? 0
            guard !apps.isEmpty else { return DueClaim(records: [], exhausted: true) }
            var claimed: [DeliveryRecord] = []
            // Whether some app may have more due than it got (its room, or the limit, cut it short).
            var cut = false
            let start = rotation % apps.count
            for offset in apps.indices {
                let app = apps[(start + offset) % apps.count]
                let room = min(roomByApp[app] ?? defaultRoom, limit - claimed.count)
                guard room > 0 else {
                    cut = true
                    continue
                }
                let taken = try await connection.rows(
                    """
                    WITH picked AS (
                        SELECT id FROM deliveries
                        WHERE state = 'pending' AND app_id = \(app) AND next_attempt_at_ms <= \(nowMs)
                        ORDER BY next_attempt_at_ms, id LIMIT \(Int64(room))
                        FOR UPDATE SKIP LOCKED
                    ), claimed AS (
                        UPDATE deliveries d
                        SET state = 'in_flight', updated_at_ms = \(nowMs), lease_owner = \(nodeID), lease_expires_at_ms = \(leaseUntil)
                        FROM picked WHERE d.id = picked.id
                        RETURNING \(unescaped: DeliveryColumns.prefixed("d"))
                    )
                    SELECT \(unescaped: DeliveryColumns.prefixed("c")), p.payload, t.configuration, n.collapse_key
                    FROM claimed c LEFT JOIN delivery_payloads p ON p.delivery_id = c.id
                    LEFT JOIN device_tokens t ON t.app_id = c.app_id AND t.token = c.device_token
                    LEFT JOIN notifications n ON c.message_id < 0 AND n.id = -c.message_id
                    ORDER BY c.next_attempt_at_ms, c.id
                    """, logger: logger, DeliveryColumns.record)
                claimed += taken
                if taken.count == room { cut = true }
            }
            return DueClaim(records: claimed, exhausted: !cut, takenOver: takenOver)
        }
    }

    /// `UPDATE …` putting in-flight deliveries whose lease ran out before the time that follows
    /// back to pending, same apns-id, same attempts (a dead relay's work is taken over).
    static let sweepExpiredLeases = """
        UPDATE deliveries SET state = 'pending', lease_owner = NULL, lease_expires_at_ms = NULL
        WHERE state = 'in_flight' AND lease_expires_at_ms <
        """

    /// When the earliest pending delivery is due; nil when none is pending. Another relay's
    /// in-flight delivery counts as due just after its lease runs out, when a claim here would
    /// take it over: a relay with nothing of its own to send still wakes for a dead one's work.
    public func nextDueAtMs() async throws -> Int64? {
        try await withConnection { connection in
            try await connection.value(
                """
                SELECT LEAST(
                    (SELECT MIN(next_attempt_at_ms) FROM deliveries WHERE state = 'pending'),
                    (SELECT MIN(lease_expires_at_ms) + 1 FROM deliveries WHERE state = 'in_flight' AND lease_owner <> \(nodeID)))
                """, as: Int64.self, logger: logger)
        }
    }

    /// Records outcomes (state, attempt log, token removals and configuration moves) in ONE
    /// statement, so one transaction and one round trip per batch: the updates, the attempt rows
    /// and the token changes go in as arrays. Clears each delivery's lease. Returns how many tokens were removed.
    ///
    /// A batch naming one delivery twice (never the dispatcher's) is recorded as several
    /// statements in one transaction, in order, as SQLite applies them.
    @discardableResult
    public func recordOutcomes(_ outcomes: [DeliveryOutcome]) async throws -> Int {
        guard !outcomes.isEmpty else { return 0 }
        // Removing a token (or moving it to another configuration) is a registry write of its app:
        // the statement notifies the fleet for each app it changed one of, and this relay's cache forgets those apps once it has ended.
        var touched: [String] = []
        defer { for app in touched { recipientCache.invalidate(app: app) } }
        var rounds: [[DeliveryOutcome]] = [[]]
        var ids: Set<Int64> = []
        for outcome in outcomes {
            if !ids.insert(outcome.deliveryID).inserted {
                rounds.append([])
                ids = [outcome.deliveryID]
            }
            rounds[rounds.count - 1].append(outcome)
        }
        if rounds.count == 1 {
            let result = try await retryingTransientFailures {
                try await withConnection { connection in try await Self.record(outcomes, connection, logger: logger) }
            }
            touched = result.apps
            return result.removed
        }
        let result = try await transaction { connection in
            var total: (removed: Int, apps: [String]) = (0, [])
            for round in rounds {
                let result = try await Self.record(round, connection, logger: logger)
                total = (total.removed + result.removed, total.apps + result.apps)
            }
            return total
        }
        touched = result.apps
        return result.removed
    }

    /// One statement recording `outcomes` (each delivery at most once); returns the tokens removed
    /// and the apps they were of.
    private static func record(
        _ outcomes: [DeliveryOutcome], _ connection: PostgresConnection, logger: Logger
    ) async throws -> (removed: Int, apps: [String]) {
        let (attemptOutcomes, attemptRows, removals, moves) = OutcomeArrays(outcomes).parts
        let rows = try await connection.rows(
            """
            WITH o AS (
                SELECT * FROM unnest(
                    \(PostgresArray.int8(outcomes.map(\.deliveryID))), \(PostgresArray.text(outcomes.map(\.state.rawValue))),
                    \(PostgresArray.int8(outcomes.map { $0.attempt == nil ? 0 : 1 })),
                    \(PostgresArray.int8(outcomes.map(\.nextAttemptAtMs))),
                    \(PostgresArray.int8(outcomes.map { $0.attempt?.status.map(Int64.init) })),
                    \(PostgresArray.text(outcomes.map { $0.attempt?.reason ?? $0.attempt?.error })),
                    \(PostgresArray.int8(outcomes.map { $0.state == .sent ? $0.atMs : nil })), \(PostgresArray.int8(outcomes.map(\.atMs))),
                    \(PostgresArray.text(outcomes.map(\.providerMessageID)))
                ) AS o(id, state, attempted, next_attempt_at_ms, status, reason, sent_at_ms, at_ms, message_name)
            ), updated AS (
                UPDATE deliveries d SET state = o.state, attempts = d.attempts + o.attempted,
                    next_attempt_at_ms = COALESCE(o.next_attempt_at_ms, d.next_attempt_at_ms),
                    last_status = COALESCE(o.status, d.last_status), last_reason = COALESCE(o.reason, d.last_reason),
                    sent_at_ms = COALESCE(o.sent_at_ms, d.sent_at_ms), updated_at_ms = o.at_ms,
                    message_name = COALESCE(o.message_name, d.message_name), lease_owner = NULL, lease_expires_at_ms = NULL
                FROM o WHERE d.id = o.id
                RETURNING d.id, d.app_id, d.device_token
            ), logged AS (
                INSERT INTO delivery_attempts (delivery_id, at_ms, status, reason, error, apns_id)
                SELECT a.delivery_id, a.at_ms, a.status, a.reason, a.error, a.apns_id
                FROM unnest(
                    \(PostgresArray.int8(attemptOutcomes.map(\.deliveryID))), \(PostgresArray.int8(attemptRows.map(\.atMs))),
                    \(PostgresArray.int8(attemptRows.map { $0.status.map(Int64.init) })), \(PostgresArray.text(attemptRows.map(\.reason))),
                    \(PostgresArray.text(attemptRows.map(\.error))),
                    \(PostgresArray.text(attemptRows.map { UUIDText.lowercase($0.pushID) }))
                ) WITH ORDINALITY AS a(delivery_id, at_ms, status, reason, error, apns_id, n)
                WHERE a.delivery_id IN (SELECT id FROM updated)  -- pruned meanwhile: nothing to log
                ORDER BY a.n
            ), dead AS (
                SELECT u.app_id, u.device_token AS token, r.before FROM updated u
                JOIN unnest(\(PostgresArray.int8(removals.map(\.id))), \(PostgresArray.int8(removals.map(\.before)))) AS r(id, before)
                    ON u.id = r.id
            ), removed AS (
                DELETE FROM device_tokens t USING dead d
                WHERE t.app_id = d.app_id AND t.token = d.token AND (d.before IS NULL OR t.registered_at < d.before)
                RETURNING t.app_id
            ), removed_start AS (
                DELETE FROM live_activity_start_tokens t USING dead d
                WHERE t.app_id = d.app_id AND t.token = d.token AND (d.before IS NULL OR t.registered_at < d.before)
                RETURNING 1
            ), removed_channels AS (
                DELETE FROM broadcast_channels c USING dead d WHERE c.app_id = d.app_id AND c.channel_id = d.token
                RETURNING 1
            ), removed_update AS (
                UPDATE live_activities a SET update_token = NULL FROM dead d
                WHERE a.app_id = d.app_id AND a.update_token = d.token AND (d.before IS NULL OR a.token_registered_at < d.before)
                RETURNING 1
            ), moved AS (
                UPDATE device_tokens t SET configuration = m.configuration
                FROM updated u, unnest(\(PostgresArray.int8(moves.map(\.id))), \(PostgresArray.text(moves.map(\.configuration))))
                    AS m(id, configuration)
                WHERE u.id = m.id AND t.app_id = u.app_id AND t.token = u.device_token
                RETURNING t.app_id
            ), apps AS (
                SELECT app_id FROM removed UNION SELECT app_id FROM moved
            ), notified AS (
                SELECT pg_notify(\(RegistryListener.channel), \(RegistryListener.registryPrefix) || app_id) FROM apps
            )
            SELECT (SELECT COUNT(*) FROM removed) + (SELECT COUNT(*) FROM removed_start) + (SELECT COUNT(*) FROM removed_update)
                + (SELECT COUNT(*) FROM removed_channels)
                + 0 * (SELECT COUNT(*) FROM notified), (SELECT array_agg(app_id) FROM apps)
            """, logger: logger
        ) { row in try row.decode((Int, [String]?).self) }
        let (removed, apps) = rows.first ?? (0, nil)
        return (removed, apps ?? [])
    }

    /// Puts deliveries THIS relay left in flight (a crash) back to pending, same apns-id, same
    /// attempts. Other relays' in-flight deliveries are theirs until their lease runs out.
    /// Call once at start, before the dispatcher claims anything. Returns how many.
    @discardableResult
    public func resumeInFlight() async throws -> Int {
        try await withConnection { connection in
            try await connection.count(
                """
                UPDATE deliveries SET state = 'pending', lease_owner = NULL, lease_expires_at_ms = NULL
                WHERE state = 'in_flight' AND lease_owner = \(nodeID) RETURNING 1
                """, logger: logger)
        }
    }

    /// Claims expire: renewed every third of a lease, a live relay never loses them.
    public var claimRenewalInterval: Duration? { configuration.leaseDuration / 3 }

    public var isShared: Bool { true }

    /// How many relays are connected to this database now: the node ids in the `application_name` of
    /// its connections (`push-relay NODE`, and `push-relay NODE listen` for the LISTEN connection
    /// every live relay keeps open). `pg_stat_activity` shows every session's application name to
    /// any user, so relays connecting as other database users are counted too.
    public func connectedNodes() async throws -> Int? {
        try await withConnection { connection in
            try await connection.value(
                """
                SELECT COUNT(DISTINCT regexp_replace(application_name, ' listen$', '')) FROM pg_stat_activity
                WHERE datname = current_database() AND application_name LIKE 'push-relay %'
                """, as: Int.self, logger: logger)
        }
    }

    /// Extends this relay's leases on those of `ids` it still holds to `leaseDuration` from now
    /// (the dispatcher calls it every `claimRenewalInterval` with what it holds). Returns how many.
    @discardableResult
    public func renewClaims(ids: [Int64]) async throws -> Int {
        guard !ids.isEmpty else { return 0 }
        let until = WallClock.adding(configuration.leaseMilliseconds, to: clock())
        return try await withConnection { connection in
            try await connection.count(
                """
                UPDATE deliveries SET lease_expires_at_ms = \(until)
                WHERE state = 'in_flight' AND lease_owner = \(nodeID) AND id = ANY(\(PostgresArray.int8(ids))) RETURNING 1
                """, logger: logger)
        }
    }

    /// Puts this relay's in-flight deliveries among `ids` back to pending, due now (e.g. handed
    /// to a dispatcher that had stopped). Others are left alone, including one another relay
    /// took over when its lease ran out.
    public func requeue(ids: [Int64]) async throws {
        guard !ids.isEmpty else { return }
        let now = clock()
        try await withConnection { connection in
            try await connection.run(
                """
                UPDATE deliveries SET state = 'pending', next_attempt_at_ms = \(now), updated_at_ms = \(now),
                    lease_owner = NULL, lease_expires_at_ms = NULL
                WHERE state = 'in_flight' AND lease_owner = \(nodeID) AND id = ANY(\(PostgresArray.int8(ids)))
                """, logger: logger)
        }
    }

    /// What this relay answers for, per app: every pending delivery (any relay may take it) and
    /// its own in-flight ones. Other relays' claims are theirs to count.
    public func unsentCountsByApp() async throws -> [String: Int] {
        try await withConnection { connection in
            var counts: [String: Int] = [:]
            for row in try await connection.rows(
                """
                SELECT app_id, COUNT(*) FROM (
                    SELECT app_id FROM deliveries WHERE state = 'pending'
                    UNION ALL SELECT app_id FROM deliveries WHERE state = 'in_flight' AND lease_owner = \(nodeID)
                ) unsent GROUP BY app_id
                """, logger: logger)
            {
                let (app, count) = try row.decode((String, Int).self)
                counts[app] = count
            }
            return counts
        }
    }

    /// This relay's own in-flight deliveries by the second they were created. Pending ones are
    /// left out: other relays send them without this relay hearing of it, and their seconds
    /// would stay counted here forever (the age of the oldest unsent push would only grow).
    public func unsentCountsBySecond() async throws -> [Int64: Int] {
        try await withConnection { connection in
            var counts: [Int64: Int] = [:]
            for row in try await connection.rows(
                """
                SELECT created_at_ms / 1000 AS s, COUNT(*) FROM deliveries WHERE state = 'in_flight' AND lease_owner = \(nodeID) GROUP BY s
                """, logger: logger)
            {
                let (second, count) = try row.decode((Int64, Int).self)
                counts[second] = count
            }
            return counts
        }
    }

    /// Deliveries waiting to be sent (pending or in flight).
    public func pendingCount() async throws -> Int {
        try await withConnection { connection in
            try await connection.value(
                """
                SELECT (SELECT COUNT(*) FROM deliveries WHERE state = 'pending')
                     + (SELECT COUNT(*) FROM deliveries WHERE state = 'in_flight')
                """, as: Int.self, logger: logger) ?? 0
        }
    }

    /// Deliveries in each state (for tests and operators).
    public func deliveryStateCounts() async throws -> [DeliveryState: Int] {
        try await withConnection { connection in
            var counts: [DeliveryState: Int] = [:]
            for row in try await connection.rows("SELECT state, COUNT(*) FROM deliveries GROUP BY state", logger: logger) {
                let (state, count) = try row.decode((String, Int).self)
                counts[DeliveryState(rawValue: state)] = count
            }
            return counts
        }
    }
}

/// What one recording statement carries besides the outcomes themselves: the attempts the log
/// keeps, the tokens to remove (with the registration time they must predate), and the tokens
/// moved to another configuration, each by delivery id.
private struct OutcomeArrays {
    var attemptOutcomes: [DeliveryOutcome] = []
    var attemptRows: [DeliveryAttempt] = []
    var removals: [(id: Int64, before: Int64?)] = []
    var moves: [(id: Int64, configuration: String)] = []

    init(_ outcomes: [DeliveryOutcome]) {
        for outcome in outcomes {
            // `AttemptLog`: a plain acceptance is the delivery row itself.
            if let a = outcome.loggedAttempt {
                attemptOutcomes.append(outcome)
                attemptRows.append(a)
            }
            switch outcome.tokenRemoval {
            case .ifRegisteredBefore(let ms)?: removals.append((outcome.deliveryID, ms))
            case .always?: removals.append((outcome.deliveryID, nil))
            case nil: break
            }
            if let configuration = outcome.tokenConfiguration { moves.append((outcome.deliveryID, configuration)) }
        }
    }

    var parts:
        (
            [DeliveryOutcome], [DeliveryAttempt], [(id: Int64, before: Int64?)], [(id: Int64, configuration: String)]
        )
    { (attemptOutcomes, attemptRows, removals, moves) }
}
