import Foundation
import GRDB
import PushCore
import StoreContract

/// Sendbird's user API (`/v3/users`) and erasure.
extension SQLiteStore {
    static let userColumns =
        "user_id, nickname, profile_url, COALESCE(profile_created_at, created_at), profile_created_at IS NOT NULL, preferred_languages"

    static func profile(_ row: Row) -> UserProfile {
        UserProfile(
            userID: row[0], nickname: row[1], profileURL: row[2], createdAtMs: row[3], hasProfile: row[4],
            languages: PreferredLanguages(stored: row[5]))
    }

    public func createUser(app: String, user: String, nickname: String, profileURL: String) async throws -> UserProfile? {
        let now = clock()
        return try await registryWrite(app: app) { db in
            try Self.ensureUser(db, app: app, user: user, now: now)
            let row = try Row.fetchOne(
                db,
                sql: """
                    UPDATE users SET nickname = ?, profile_url = ?, profile_created_at = ?
                    WHERE app_id = ? AND user_id = ? AND profile_created_at IS NULL
                    RETURNING \(Self.userColumns)
                    """, arguments: [nickname, profileURL, now, app, user])
            return row.map(Self.profile)
        }
    }

    public func user(app: String, user: String) async throws -> UserProfile? {
        try await pool.read { db in
            try Row.fetchOne(
                db, sql: "SELECT \(Self.userColumns) FROM users WHERE app_id = ? AND user_id = ?", arguments: [app, user]
            ).map(Self.profile)
        }
    }

    public func updateUser(app: String, user: String, change: UserProfileChange) async throws -> UserProfile? {
        try await registryWrite(app: app) { db in
            try Row.fetchOne(
                db,
                sql: """
                    UPDATE users SET nickname = COALESCE(?, nickname), profile_url = COALESCE(?, profile_url),
                        preferred_languages = COALESCE(?, preferred_languages)
                    WHERE app_id = ? AND user_id = ? RETURNING \(Self.userColumns)
                    """, arguments: [change.nickname, change.profileURL, change.languages?.stored, app, user]
            ).map(Self.profile)
        }
    }

    public func users(app: String, after: String?, limit: Int) async throws -> [UserProfile] {
        try await pool.read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT \(Self.userColumns) FROM users WHERE app_id = ? AND user_id > ? ORDER BY user_id LIMIT ?",
                arguments: [app, after ?? "", limit]
            ).map(Self.profile)
        }
    }

    /// One write transaction, so nothing committed while it runs survives it (a push accepted for
    /// the user between two phases did before). A read comes first: an erasure that finds
    /// nothing writes nothing, releases no snapshot and runs no checkpoint, so `DELETE` of an
    /// unknown user costs what a `GET` does.
    ///
    /// The transaction finds what names the user again (their deliveries and decisions, and the
    /// events they sent, have no index by user alone: a full scan of each, since an index would
    /// cost every webhook commit to save this) and deletes it, holding SQLite's one writer for
    /// that long: an erasure is rare, and a partial one is worse. `secure_delete` (set on every
    /// connection) zeroes what is deleted, and a final `wal_checkpoint(TRUNCATE)` empties the
    /// WAL, which held earlier page images.
    /// Index probes only: the user's messages and skips name them in `logged_users` (`PerAppLogSchema`).
    /// Without a users row there are no deliveries.
    public func namesUser(app: String, user: String) async throws -> Bool {
        try await pool.read { db in
            try Bool.fetchOne(
                db,
                sql: """
                    SELECT EXISTS (SELECT 1 FROM users WHERE app_id = ?1 AND user_id = ?2)
                        OR EXISTS (SELECT 1 FROM session_tokens WHERE app_id = ?1 AND user_id = ?2)
                        OR EXISTS (SELECT 1 FROM badges WHERE app_id = ?1 AND user_id = ?2)
                        OR EXISTS (SELECT 1 FROM logged_users WHERE app_id = ?1 AND user_id = ?2)
                        OR EXISTS (SELECT 1 FROM topic_subscriptions WHERE app_id = ?1 AND user_id = ?2)
                        OR EXISTS (SELECT 1 FROM notification_recipients WHERE app_id = ?1 AND user_id = ?2)
                    """, arguments: [app, user]) ?? false
        }
    }

    public func eraseUser(app: String, user: String) async throws -> Bool {
        guard try await namesUser(app: app, user: user) else { return false }
        let erased = try await registryWrite(app: app) { db in
            let found = try UserErasure.find(db, app: app, user: user)
            for part in UserErasureScope.parts {
                try Self.erase(part, found, app: app, user: user, db)
            }
            return !found.isEmpty
        }
        try await checkpointAfterErasure()
        return erased
    }

    /// `busy` (the first column) says the WAL was not emptied: the background checkpoint
    /// (`WALCheckpointer`) held the checkpoint lock, or a reader an older snapshot, for a moment.
    /// Tried again for up to about 2 s; both are short. The webhook's readers keep no snapshot
    /// meanwhile (`SnapshotReaders`).
    private func checkpointAfterErasure() async throws {
        snapshotReaders.releaseForCheckpoint()
        defer { snapshotReaders.checkpointDone() }
        for _ in 0..<200 {
            let busy = try await pool.writeWithoutTransaction { db in
                try Int.fetchOne(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)") ?? 0
            }
            if busy == 0 { break }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    private static func erase(_ part: UserErasureScope.Part, _ found: UserErasure, app: String, user: String, _ db: Database) throws {
        switch part {
        case .sentPushes: try eraseSentDeliveries(found.sentDeliveries, db)
        case .sentMessages: try eraseSentMessages(found.sentMessages, app: app, user: user, db)
        case .ownDeliveries: try eraseOwnDeliveries(found.ownDeliveries, db)
        case .decisions:
            for messages in found.decisionMessages.chunks(of: UserErasure.batch) {
                let list = messages.map(String.init).joined(separator: ",")
                try db.execute(
                    sql: "DELETE FROM decisions WHERE app_id = ? AND message_id IN (\(list)) AND user_id = ?", arguments: [app, user])
            }
        case .userRows:
            // `logged_users` is SQLite's own index of the users the log names (`PerAppLogSchema`).
            for table in ["logged_users"] + UserErasureScope.userKeyedTables {
                try db.execute(sql: "DELETE FROM \(table) WHERE app_id = ? AND user_id = ?", arguments: [app, user])
            }
        }
    }

    /// The user's messages' pushes to others: their payloads go, pending ones fail.
    private static func eraseSentDeliveries(_ ids: [Int64], _ db: Database) throws {
        for chunk in ids.chunks(of: UserErasure.batch) {
            let list = chunk.map(String.init).joined(separator: ",")
            try db.execute(sql: "DELETE FROM delivery_payloads WHERE delivery_id IN (\(list))")
            // A packed row holds one event's payloads: all of them are the user's message.
            for first in try Self.packedRows(holding: chunk, db).keys {
                try db.execute(sql: "DELETE FROM packed_payloads WHERE first_delivery_id = ?", arguments: [first])
            }
            try db.execute(
                sql: "UPDATE deliveries SET state = 'failed', last_reason = ? WHERE id IN (\(list)) AND state = 'pending'",
                arguments: [UserErasureScope.pendingPushReason])
        }
    }

    /// The bytes the pushes of the user's messages shared (sender, message) go with them, after
    /// the payloads that used them; the events keep no sender (by primary key, as no index finds
    /// them by sender).
    private static func eraseSentMessages(_ messages: [Int64], app: String, user: String, _ db: Database) throws {
        for chunk in messages.chunks(of: UserErasure.batch) {
            let list = chunk.map(String.init).joined(separator: ",")
            try db.execute(sql: "DELETE FROM event_payloads WHERE app_id = ? AND message_id IN (\(list))", arguments: [app])
            try db.execute(
                sql: "UPDATE events SET sender_id = NULL WHERE app_id = ? AND message_id IN (\(list)) AND sender_id = ?",
                arguments: [app, user])
        }
    }

    /// The user's own deliveries: their parts of packed rows are emptied (the other recipients'
    /// stay; one row's parts in memory at a time), and the rows go with their attempts.
    private static func eraseOwnDeliveries(_ ids: [Int64], _ db: Database) throws {
        for chunk in ids.chunks(of: UserErasure.batch) {
            let list = chunk.map(String.init).joined(separator: ",")
            try db.execute(sql: "DELETE FROM delivery_payloads WHERE delivery_id IN (\(list))")
            for (first, places) in try Self.packedRows(holding: chunk, db) {
                let parts = try Data.fetchOne(db, sql: "SELECT parts FROM packed_payloads WHERE first_delivery_id = ?", arguments: [first])
                if let parts, let blanked = PackedPayloads.blanking(parts, places: places) {
                    try db.execute(
                        sql: "UPDATE packed_payloads SET parts = ? WHERE first_delivery_id = ?", arguments: [Data(blanked), first])
                } else {
                    // Damaged: it goes whole rather than keep the user's bytes.
                    try db.execute(sql: "DELETE FROM packed_payloads WHERE first_delivery_id = ?", arguments: [first])
                }
            }
            // Attempts go with their delivery (ON DELETE CASCADE).
            try db.execute(sql: "DELETE FROM deliveries WHERE id IN (\(list))")
        }
    }
}

extension SQLiteStore {
    /// The `packed_payloads` rows holding deliveries `ids` (by first delivery id), each with the
    /// places of those deliveries in it: keys only (the parts stay on disk), one probe per row, as
    /// `ids` are walked in order.
    static func packedRows(holding ids: some Collection<Int64>, _ db: Database) throws -> [Int64: Set<Int>] {
        let find = try db.cachedStatement(sql: PackedPayloads.containingRowKey)
        var rows: [Int64: Set<Int>] = [:]
        var current: ClosedRange<Int64>?
        for id in ids.sorted() {
            if current.map({ !$0.contains(id) }) ?? true {
                current = nil
                if let row = try Row.fetchOne(find, arguments: [id]) {
                    let first: Int64 = row[0], last: Int64 = row[1]
                    if first <= id, id <= last { current = first...last }
                }
            }
            guard let current else { continue }
            rows[current.lowerBound, default: []].insert(Int(id - current.lowerBound))
        }
        return rows
    }
}

/// What an erasure finds to delete (ids), and whether the user has registry rows.
struct UserErasure: Sendable {
    /// Ids per statement.
    static let batch = 5_000

    var ownDeliveries: [Int64]
    var sentDeliveries: [Int64]
    var decisionMessages: [Int64]
    /// Messages the user sent (their events' shared payload bytes name them).
    var sentMessages: [Int64]
    /// A user row, session token, badge row, topic subscription or noted notification user.
    var hasRegistryRows: Bool

    var isEmpty: Bool {
        ownDeliveries.isEmpty && sentDeliveries.isEmpty && decisionMessages.isEmpty && sentMessages.isEmpty && !hasRegistryRows
    }

    static func find(_ db: Database, app: String, user: String) throws -> UserErasure {
        // The log's rows are searched only for a user it names: the app's events by sender have
        // no index (it would cost every webhook commit: v12), and an unknown id reads nothing.
        let logged = try isLogged(db, app: app, user: user)
        let sentMessages =
            logged
            ? try Int64.fetchAll(db, sql: "SELECT message_id FROM events WHERE app_id = ? AND sender_id = ?", arguments: [app, user])
            : []
        // Their deliveries by message, one probe of `deliveries_on_message` each; a join would
        // let SQLite walk every delivery of the app instead, probing events for each.
        var sentDeliveries: [Int64] = []
        for messages in sentMessages.chunks(of: batch) {
            sentDeliveries += try Int64.fetchAll(
                db,
                sql: "SELECT id FROM deliveries WHERE app_id = ? AND message_id IN (SELECT value FROM json_each(?))",
                arguments: [app, "[" + messages.map(String.init).joined(separator: ",") + "]"])
        }
        let registry =
            try Bool.fetchOne(
                db,
                sql: """
                    SELECT EXISTS (SELECT 1 FROM users WHERE app_id = ?1 AND user_id = ?2)
                        OR EXISTS (SELECT 1 FROM session_tokens WHERE app_id = ?1 AND user_id = ?2)
                        OR EXISTS (SELECT 1 FROM badges WHERE app_id = ?1 AND user_id = ?2)
                        OR EXISTS (SELECT 1 FROM topic_subscriptions WHERE app_id = ?1 AND user_id = ?2)
                        OR EXISTS (SELECT 1 FROM notification_recipients WHERE app_id = ?1 AND user_id = ?2)
                    """, arguments: [app, user]) ?? false
        return UserErasure(
            // Without a users row there are none (registering a token makes it; only erasure
            // removes it), and an unknown user costs no read of the app's deliveries.
            ownDeliveries: registry
                ? try Int64.fetchAll(db, sql: "SELECT id FROM deliveries WHERE app_id = ? AND user_id = ?", arguments: [app, user]) : [],
            sentDeliveries: sentDeliveries,
            // Skips name members who never registered too: found within the app's own decisions,
            // by the table's key (app, message).
            decisionMessages: logged
                ? try Int64.fetchAll(
                    db, sql: "SELECT message_id FROM decisions WHERE app_id = ? AND user_id = ?",
                    arguments: [app, user]) : [],
            sentMessages: sentMessages, hasRegistryRows: registry)
    }
}

extension UserErasure {
    fileprivate static func isLogged(_ db: Database, app: String, user: String) throws -> Bool {
        try Bool.fetchOne(
            db, sql: "SELECT EXISTS (SELECT 1 FROM logged_users WHERE app_id = ? AND user_id = ?)", arguments: [app, user]) ?? false
    }
}

extension Array {
    func chunks(of size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}
