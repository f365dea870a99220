import Foundation
import GRDB
import StoreContract
import UUIDText

extension SQLiteStore {
    /// One write transaction (one fsync) for the whole batch.
    public func commitEvents(_ events: [AcceptedEvent]) async throws -> [[Int64]?] {
        guard !events.isEmpty else { return [] }
        return try await pool.write { db in
            try events.map { try Self.accept($0, db) }
        }
    }

    private static func accept(_ event: AcceptedEvent, _ db: Database) throws -> [Int64]? {
        let insertEvent = RawStatement(
            try db.cachedStatement(
                sql: """
                    INSERT INTO events (app_id, message_id, channel_url, created_at_ms, sender_id) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT DO NOTHING
                    """))
        insertEvent.bind(1, event.appID)
        insertEvent.bind(2, event.messageID)
        insertEvent.bind(3, event.channelURL)
        insertEvent.bind(4, event.acceptedAtMs)
        insertEvent.bind(5, event.senderID)
        guard try insertEvent.run() > 0 else { return nil }
        return try recordDecisionsAndDeliveries(of: event, db)
    }

    /// An accepted event's rows besides the event's own: the names the log uses, the skip
    /// decisions, the deliveries with their payloads, the badges. A notification's batches
    /// (message id below 0) are written by this too, without an event row.
    static func recordDecisionsAndDeliveries(of event: AcceptedEvent, _ db: Database) throws -> [Int64] {
        // Each user the log names (the sender, skipped members) is named once in `logged_users`:
        // a probe, and a write only for a new name.
        let name = try db.cachedStatement(
            sql: "INSERT INTO logged_users (app_id, user_id) VALUES (?, ?) ON CONFLICT DO NOTHING")
        func logName(_ user: String) throws {
            let named = RawStatement(name)
            named.bind(1, event.appID)
            named.bind(2, user)
            try named.run()
        }
        if let sender = event.senderID { try logName(sender) }

        let decision = try db.cachedStatement(
            sql: """
                INSERT INTO decisions (app_id, message_id, user_id, decision, created_at_ms) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT DO NOTHING
                """)
        // Only skips get a row: a pushed member's deliveries already say "push" (and when), and a
        // 10-member event with 8 pushed members writes 8 rows fewer.
        for record in event.decisions where record.decision != .push {
            let insert = RawStatement(decision)
            insert.bind(1, event.appID)
            insert.bind(2, event.messageID)
            insert.bind(3, record.userID)
            insert.bind(4, record.decision.code)
            insert.bind(5, event.acceptedAtMs)
            try insert.run()
            try logName(record.userID)
        }
        let now = event.acceptedAtMs
        // The bytes every payload repeats, once for the event (`StoredPayload`).
        var shared: [UInt8]?
        if let bytes = event.usedSharedPayload {
            // A row may be left from an earlier event of the same message id, pruned while one of
            // its deliveries was still unsent: that delivery needs those bytes, so they stay, and
            // this event's payloads are stored whole.
            let insertShared = RawStatement(
                try db.cachedStatement(
                    sql: "INSERT INTO event_payloads (app_id, message_id, shared) VALUES (?, ?, ?) ON CONFLICT DO NOTHING"))
            insertShared.bind(1, event.appID)
            insertShared.bind(2, event.messageID)
            insertShared.bind(3, bytes: bytes)
            if try insertShared.run() > 0 { shared = bytes }
        }
        let state = event.handedOff ? DeliveryState.inFlight.rawValue : DeliveryState.pending.rawValue
        let ids = try Self.insertDeliveries(of: event, state: state, db)
        try Self.insertPayloads(of: event, ids: ids, shared: shared, db)
        if let badges = event.badges { try Self.recordBadges(badges, app: event.appID, nowMs: now, db) }
        return ids
    }

    /// The event's payloads: with shared bytes, in one row for the event (`PackedPayloads`), named
    /// by the event's ids, which are consecutive (`insertDeliveries` gives them); without shared
    /// bytes, or for more deliveries than a row holds, a row for each payload.
    private static func insertPayloads(of event: AcceptedEvent, ids: [Int64], shared: [UInt8]?, _ db: Database) throws {
        if let shared, let first = ids.first, let last = ids.last, ids.count <= PackedPayloads.maximumCount {
            let parts = event.packedPayloads ?? PackedPayloads.encode(event.deliveries, shared: shared)
            // Ids are reused once the highest deliveries are deleted: a row left from those (all
            // of a row's users erased) would otherwise take the key, or claim these ids.
            let dropStale = RawStatement(try db.cachedStatement(sql: "DELETE FROM packed_payloads WHERE first_delivery_id >= ?"))
            dropStale.bind(1, first)
            try dropStale.run()
            let insertPacked = RawStatement(
                try db.cachedStatement(sql: "INSERT INTO packed_payloads (first_delivery_id, last_delivery_id, parts) VALUES (?, ?, ?)"))
            insertPacked.bind(1, first)
            insertPacked.bind(2, last)
            insertPacked.bind(3, bytes: parts)
            try insertPacked.run()
        } else {
            let payload = try db.cachedStatement(sql: "INSERT INTO delivery_payloads (delivery_id, payload, spans) VALUES (?, ?, ?)")
            for (id, d) in zip(ids, event.deliveries) {
                let insertPayload = RawStatement(payload)
                insertPayload.bind(1, id)
                if let shared, let stored = StoredPayload.split(d.payload, spans: d.sharedSpans, shared: shared) {
                    insertPayload.bind(2, bytes: stored.alone)
                    insertPayload.bind(3, bytes: stored.spans)
                } else {
                    insertPayload.bind(2, d.payload)
                    insertPayload.bind(3, nil as Data?)
                }
                try insertPayload.run()
            }
        }
    }

    /// Inserts the event's deliveries, up to `deliveriesPerInsert` in one statement (the event's
    /// columns bound once), and returns their ids. The ids are given, not left to SQLite: the
    /// next ones after the highest (what SQLite would choose), so they are known without a
    /// `RETURNING`, whose rows come in no promised order.
    private static func insertDeliveries(of event: AcceptedEvent, state: String, _ db: Database) throws -> [Int64] {
        guard !event.deliveries.isEmpty else { return [] }
        // Read per event (one probe of the table's last page, about 1 µs), not carried across the
        // commit: an insert added between two events' would otherwise collide with these ids.
        var highest: Int64?
        try RawStatement(db.cachedStatement(sql: "SELECT MAX(id) FROM deliveries")).forEachRow { highest = $0.optionalInt64(0) }
        // Past the largest id SQLite's own choice would be random; ids that high mean an
        // edited file, refused like any other unreadable value.
        guard (highest ?? 0) < Int64.max - Int64(event.deliveries.count) else {
            throw PushStoreError.corruptValue(table: "deliveries", column: "id", value: String(highest ?? 0))
        }
        var next = (highest ?? 0) + 1
        var ids: [Int64] = []
        ids.reserveCapacity(event.deliveries.count)
        var start = event.deliveries.startIndex
        while start < event.deliveries.endIndex {
            let chunk = event.deliveries[start..<min(start + deliveriesPerInsert, event.deliveries.endIndex)]
            let insert = RawStatement(try db.cachedStatement(sql: insertDeliveriesSQL[chunk.count - 1]))
            insert.bind(1, event.appID)
            insert.bind(2, event.messageID)
            insert.bind(3, state)
            insert.bind(4, event.acceptedAtMs)
            insert.bind(5, next)
            // By index: each element read in place (a copy of a `NewDelivery` retains its
            // strings and payload, 0.5 % of the relay's CPU at the busy end).
            for index in chunk.indices {
                let first = Int32(6 + (index - chunk.startIndex) * 7)
                insert.bind(first, event.deliveries[index].userID)
                insert.bind(first + 1, event.deliveries[index].deviceToken)
                insert.bind(first + 2, UUIDText.lowercase(event.deliveries[index].pushID))
                insert.bind(first + 3, event.deliveries[index].provider.rawValue)
                insert.bind(first + 4, event.deliveries[index].pushType)
                insert.bind(first + 5, event.deliveries[index].priority)
                insert.bind(first + 6, event.deliveries[index].expiresAtMs)
            }
            try insert.run()
            for _ in chunk {
                ids.append(next)
                next += 1
            }
            start = chunk.endIndex
        }
        return ids
    }

    /// Rows per delivery insert: a 10-member event's 8 pushes in one statement.
    static let deliveriesPerInsert = 16

    /// The insert of 1...`deliveriesPerInsert` deliveries: ?1 app, ?2 message id, ?3 state,
    /// ?4 accepted at, ?5 the first id, then seven parameters per delivery.
    private static let insertDeliveriesSQL: [String] = (1...deliveriesPerInsert).map { count in
        let rows = (0..<count).map { row in
            let p = 6 + row * 7
            return "(?5 + \(row), ?1, ?2, ?\(p), ?\(p + 1), ?\(p + 2), ?\(p + 3), ?\(p + 4), ?\(p + 5), ?\(p + 6), ?3, 0, ?4, ?4, ?4)"
        }
        return """
            INSERT INTO deliveries (id, app_id, message_id, user_id, device_token, push_id, provider, push_type, priority,
                expires_at_ms, state, attempts, next_attempt_at_ms, created_at_ms, updated_at_ms)
            VALUES \(rows.joined(separator: ", "))
            """
    }

    /// Whether an event was accepted (and not yet pruned).
    public func eventExists(app: String, messageID: Int64) async throws -> Bool {
        try await pool.read { db in
            try Bool.fetchOne(
                db, sql: "SELECT EXISTS (SELECT 1 FROM events WHERE app_id = ? AND message_id = ?)",
                arguments: [app, messageID]) ?? false
        }
    }
}
