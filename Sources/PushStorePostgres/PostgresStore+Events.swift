import Foundation
import PostgresNIO
import StoreContract
import UUIDText

extension PostgresStore {
    /// Stores each event with its decisions and deliveries in ONE statement (so one transaction
    /// and one round trip, whatever the batch): every row goes in as arrays (`unnest`).
    ///
    /// The events' primary key is the dedupe across the fleet: `ON CONFLICT DO NOTHING RETURNING`
    /// says which events are new, and only those get decisions and deliveries. A duplicate earlier
    /// in the same batch is found here, before the statement. Events go in in key order, so two
    /// relays committing overlapping batches wait for each other instead of deadlocking.
    /// Delivery ids come from the sequence in the batch's order (as SQLite's rowids do), so the
    /// statement can hand back which id is which delivery's. Handed-off deliveries go in flight,
    /// leased to this relay.
    public func commitEvents(_ events: [AcceptedEvent]) async throws -> [[Int64]?] {
        guard !events.isEmpty else { return [] }
        let batch = EventBatch(events, storingEvents: true)
        let leaseUntil = WallClock.adding(configuration.leaseMilliseconds, to: clock())
        let rows = try await retryingTransientFailures {
            try await withConnection { connection in
                try await Self.write(batch, nodeID: nodeID, leaseUntil: leaseUntil, connection, logger: logger)
            }
        }
        return batch.results(rows)
    }

    /// An accepted event's rows besides the event's own (its decisions, deliveries, payloads and
    /// badges), on `connection`, in the caller's transaction: a notification's batch (message id
    /// -id) is written by the same statement as a webhook event, without an `events` row.
    /// - Returns: the deliveries' ids, in order.
    static func recordDecisionsAndDeliveries(
        of event: AcceptedEvent, nodeID: String, leaseUntil: Int64, _ connection: PostgresConnection, logger: Logger
    ) async throws -> [Int64] {
        let batch = EventBatch([event], storingEvents: false)
        let rows = try await write(batch, nodeID: nodeID, leaseUntil: leaseUntil, connection, logger: logger)
        return batch.results(rows).first.flatMap { $0 } ?? []
    }

    /// The one statement of `commitEvents`: each row of the batch as arrays. Events the batch
    /// stores go in only when new (and only those get the rest); the others (`storingEvents`
    /// false) always get theirs. Answers each fresh event's number, then each delivery's event,
    /// ordinal and id.
    private static func write(
        _ batch: EventBatch, nodeID: String, leaseUntil: Int64, _ connection: PostgresConnection, logger: Logger
    ) async throws -> [(Int64, Int64?, Int64?)] {
        try await connection.rows(
            """
            WITH ev AS (
                SELECT * FROM unnest(
                    \(PostgresArray.text(batch.appIDs)), \(PostgresArray.int8(batch.messageIDs)),
                    \(PostgresArray.text(batch.channelURLs)), \(PostgresArray.int8(batch.acceptedAtMs)),
                    \(PostgresArray.bool(batch.handedOff)), \(PostgresArray.text(batch.senderIDs)),
                    \(PostgresArray.bool(batch.storesEvent))
                ) WITH ORDINALITY AS e(app_id, message_id, channel_url, created_at_ms, handed_off, sender_id, stores_event, n)
            ), new_events AS (
                INSERT INTO events (app_id, message_id, channel_url, created_at_ms, sender_id)
                SELECT app_id, message_id, channel_url, created_at_ms, sender_id FROM ev WHERE stores_event
                ORDER BY app_id, message_id
                ON CONFLICT DO NOTHING
                RETURNING app_id, message_id
            ), fresh AS (
                SELECT ev.* FROM ev JOIN new_events USING (app_id, message_id)
                UNION ALL
                SELECT * FROM ev WHERE NOT stores_event
            ), decided AS (
                INSERT INTO decisions (app_id, message_id, user_id, decision, created_at_ms)
                SELECT f.app_id, f.message_id, d.user_id, d.decision, f.created_at_ms
                FROM unnest(
                    \(PostgresArray.int8(batch.decisionEvents)), \(PostgresArray.text(batch.decisionUsers)),
                    \(PostgresArray.text(batch.decisionCodes))
                ) AS d(event, user_id, decision)
                JOIN fresh f ON f.n = d.event
                ON CONFLICT DO NOTHING
            ), planned AS (
                SELECT nextval(pg_get_serial_sequence('deliveries', 'id')) AS id, v.* FROM (
                    SELECT v.*, f.app_id, f.message_id, f.created_at_ms, f.handed_off
                    FROM unnest(
                        \(PostgresArray.int8(batch.deliveryEvents)), \(PostgresArray.text(batch.deliveryUsers)),
                        \(PostgresArray.text(batch.deviceTokens)), \(PostgresArray.text(batch.pushIDs)),
                        \(PostgresArray.text(batch.providers)), \(PostgresArray.text(batch.pushTypes)), \(PostgresArray.int8(batch.priorities)),
                        \(PostgresArray.int8(batch.expiresAtMs)), \(PostgresArray.bytea(batch.payloads))
                    ) WITH ORDINALITY AS v(event, user_id, device_token, apns_id, provider, push_type, priority, expires_at_ms, payload, k)
                    JOIN fresh f ON f.n = v.event
                    ORDER BY v.k
                ) v
            ), queued AS (
                INSERT INTO deliveries (id, app_id, message_id, user_id, device_token, apns_id, provider, push_type, priority,
                    expires_at_ms, state, attempts, next_attempt_at_ms, created_at_ms, updated_at_ms, lease_owner, lease_expires_at_ms)
                SELECT id, app_id, message_id, user_id, device_token, apns_id, provider, push_type, priority, expires_at_ms,
                    CASE WHEN handed_off THEN 'in_flight' ELSE 'pending' END, 0, created_at_ms, created_at_ms, created_at_ms,
                    CASE WHEN handed_off THEN \(nodeID) END, CASE WHEN handed_off THEN \(leaseUntil) END
                FROM planned
            ), stored AS (
                INSERT INTO delivery_payloads (delivery_id, payload) SELECT id, payload FROM planned
            ), badge_src AS (
                -- Badge sync: what the pushes told each recipient (the latest per user).
                SELECT DISTINCT ON (f.app_id, b.user_id) f.app_id, b.user_id, b.badge, b.at, f.created_at_ms
                FROM unnest(
                    \(PostgresArray.int8(batch.badgeEvents)), \(PostgresArray.text(batch.badgeUsers)),
                    \(PostgresArray.int8(batch.badgeCounts)), \(PostgresArray.int8(batch.badgeAt))
                ) AS b(event, user_id, badge, at)
                JOIN fresh f ON f.n = b.event
                ORDER BY f.app_id, b.user_id, b.at DESC
            ), superseded AS (
                UPDATE deliveries d SET state = 'failed', last_reason = 'Superseded', updated_at_ms = b.created_at_ms
                FROM badge_src b
                WHERE d.app_id = b.app_id AND d.message_id = 0 AND d.user_id = b.user_id AND d.state = 'pending'
            ), badged AS (
                INSERT INTO badges (app_id, user_id, badge, read_at_ms, queued_at_ms)
                SELECT app_id, user_id, badge, at, 0 FROM badge_src ORDER BY app_id, user_id
                ON CONFLICT (app_id, user_id) DO UPDATE
                    SET badge = EXCLUDED.badge, read_at_ms = GREATEST(badges.read_at_ms, EXCLUDED.read_at_ms)
            )
            SELECT n, NULL::bigint, NULL::bigint FROM fresh
            UNION ALL
            SELECT event, k, id FROM planned
            """, logger: logger
        ) { try $0.decode((Int64, Int64?, Int64?).self) }
    }

    /// Whether an event was accepted (and not yet pruned).
    public func eventExists(app: String, messageID: Int64) async throws -> Bool {
        try await withConnection { connection in
            try await connection.value(
                "SELECT EXISTS (SELECT 1 FROM events WHERE app_id = \(app) AND message_id = \(messageID))", as: Bool.self,
                logger: logger) ?? false
        }
    }

}

/// A batch of events as the arrays `commitEvents` binds. Events are numbered 1… in the order
/// sent (`unnest … WITH ORDINALITY`); a repeat of an earlier event of the batch is not sent.
private struct EventBatch {
    private struct Key: Hashable {
        var app: String
        var messageID: Int64
    }

    /// For each event of the batch, its number in the arrays; nil for a repeat within the batch.
    private var numbers: [Int64?] = []

    private(set) var appIDs: [String?] = [], messageIDs: [Int64?] = [], channelURLs: [String?] = [], acceptedAtMs: [Int64?] = []
    private(set) var handedOff: [Bool] = [], senderIDs: [String?] = [], storesEvent: [Bool] = []
    private(set) var decisionEvents: [Int64?] = [], decisionUsers: [String?] = [], decisionCodes: [String?] = []
    private(set) var deliveryEvents: [Int64?] = [], deliveryUsers: [String?] = [], deviceTokens: [String?] = []
    private(set) var pushIDs: [String?] = [], providers: [String?] = [], pushTypes: [String?] = [], priorities: [Int64?] = [],
        expiresAtMs: [Int64?] = []
    private(set) var payloads: [Data] = []
    private(set) var badgeEvents: [Int64?] = [], badgeUsers: [String?] = [], badgeCounts: [Int64?] = [], badgeAt: [Int64?] = []

    /// - Parameter storingEvents: whether the events get an `events` row (the webhook's dedupe),
    ///   or not (a notification's batch, which its notification's hold guards instead).
    init(_ events: [AcceptedEvent], storingEvents: Bool) {
        var seen: Set<Key> = []
        for event in events {
            guard seen.insert(Key(app: event.appID, messageID: event.messageID)).inserted else {
                numbers.append(nil)
                continue
            }
            let number = Int64(appIDs.count + 1)
            numbers.append(number)
            appIDs.append(event.appID)
            messageIDs.append(event.messageID)
            channelURLs.append(event.channelURL)
            acceptedAtMs.append(event.acceptedAtMs)
            handedOff.append(event.handedOff)
            senderIDs.append(event.senderID)
            storesEvent.append(storingEvents)
            // Only skips get a row: a pushed member's deliveries already say "push" (and when).
            for record in event.decisions where record.decision != .push {
                decisionEvents.append(number)
                decisionUsers.append(record.userID)
                decisionCodes.append(record.decision.code)
            }
            for (user, count) in event.badges?.counts ?? [:] {
                badgeEvents.append(number)
                badgeUsers.append(user.text)
                badgeCounts.append(Int64(count))
                badgeAt.append(event.badges?.atMs)
            }
            for d in event.deliveries {
                deliveryEvents.append(number)
                deliveryUsers.append(d.userID)
                deviceTokens.append(d.deviceToken)
                pushIDs.append(UUIDText.lowercase(d.pushID))
                providers.append(d.provider.rawValue)
                pushTypes.append(d.pushType)
                priorities.append(Int64(d.priority))
                expiresAtMs.append(d.expiresAtMs)
                payloads.append(d.payload)
            }
        }
    }

    /// The statement's rows (event number, and for a delivery its ordinal and id) as
    /// `commitEvents` returns them: each new event's delivery ids in order, nil for a duplicate.
    func results(_ rows: [(Int64, Int64?, Int64?)]) -> [[Int64]?] {
        var fresh: Set<Int64> = []
        var deliveries: [Int64: [(ordinal: Int64, id: Int64)]] = [:]
        for (number, ordinal, id) in rows {
            if let ordinal, let id { deliveries[number, default: []].append((ordinal, id)) } else { fresh.insert(number) }
        }
        return numbers.map { number in
            guard let number, fresh.contains(number) else { return nil }
            return (deliveries[number] ?? []).sorted { $0.ordinal < $1.ordinal }.map(\.id)
        }
    }
}
