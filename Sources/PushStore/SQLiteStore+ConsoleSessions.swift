import Foundation
import GRDB
import StoreContract

/// The console's sessions (`ConsoleSessionStore`): one primary-key lookup per console request.
extension SQLiteStore {
    public func addConsoleSession(key: Data, _ session: StoredConsoleSession, maximum: Int, cutoff: ConsoleSessionCutoff)
        async throws
    {
        try await pool.write { db in
            if try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM console_sessions") ?? 0 >= maximum {
                try Self.deleteEnded(db, cutoff)
                if try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM console_sessions") ?? 0 >= maximum {
                    try db.execute(sql: ConsoleSessionSQL.evictFromTheLargestShare)
                }
            }
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO console_sessions
                        (key, identity_kind, identity_name, token_digest, app_id, csrf_token, created_at_ms, last_seen_at_ms)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    key, session.identityKind, session.identityName, session.tokenDigest, session.app, session.csrfToken,
                    session.createdAtMs, session.lastSeenAtMs,
                ])
        }
    }

    public func consoleSession(key: Data) async throws -> StoredConsoleSession? {
        try await pool.read { db in
            try Row.fetchOne(
                db,
                sql: """
                    SELECT identity_kind, identity_name, token_digest, app_id, csrf_token, created_at_ms, last_seen_at_ms
                    FROM console_sessions WHERE key = ?
                    """, arguments: [key]
            ).map { row in
                StoredConsoleSession(
                    identityKind: row[0], identityName: row[1], tokenDigest: row[2], app: row[3], csrfToken: row[4],
                    createdAtMs: row[5], lastSeenAtMs: row[6])
            }
        }
    }

    public func touchConsoleSession(key: Data, atMs: Int64) async throws {
        try await pool.write { db in
            try db.execute(
                sql: "UPDATE console_sessions SET last_seen_at_ms = max(last_seen_at_ms, ?) WHERE key = ?", arguments: [atMs, key])
        }
    }

    public func switchConsoleSession(key: Data, toApp app: String) async throws {
        try await pool.write { db in
            try db.execute(sql: "UPDATE console_sessions SET app_id = ? WHERE key = ?", arguments: [app, key])
        }
    }

    public func removeConsoleSession(key: Data) async throws {
        try await pool.write { db in
            try db.execute(sql: "DELETE FROM console_sessions WHERE key = ?", arguments: [key])
        }
    }

    @discardableResult
    public func removeConsoleSessions(identityKind: String, identityName: String) async throws -> Int {
        try await pool.write { db in
            try db.execute(
                sql: "DELETE FROM console_sessions WHERE identity_kind = ? AND identity_name = ?", arguments: [identityKind, identityName])
            return db.changesCount
        }
    }

    @discardableResult
    public func removeConsoleSessions(app: String, apiTokenKind: String) async throws -> Int {
        try await pool.write { db in
            try db.execute(
                sql: "DELETE FROM console_sessions WHERE app_id = ? OR (identity_kind = ? AND identity_name = ?)",
                arguments: [app, apiTokenKind, app])
            return db.changesCount
        }
    }

    @discardableResult
    public func pruneConsoleSessions(cutoff: ConsoleSessionCutoff) async throws -> Int {
        try await pool.write { db in
            try Self.deleteEnded(db, cutoff)
            return db.changesCount
        }
    }

    private static func deleteEnded(_ db: Database, _ cutoff: ConsoleSessionCutoff) throws {
        try db.execute(
            sql: "DELETE FROM console_sessions WHERE last_seen_at_ms <= ? OR created_at_ms <= ?",
            arguments: [cutoff.idleByMs, cutoff.createdByMs])
    }
}
