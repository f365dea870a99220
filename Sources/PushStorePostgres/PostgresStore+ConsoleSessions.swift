import Foundation
import PostgresNIO
import StoreContract

/// The console's sessions (`ConsoleSessionStore`), shared by the fleet: one primary-key lookup
/// per console request.
extension PostgresStore {
    public func addConsoleSession(key: Data, _ session: StoredConsoleSession, maximum: Int, cutoff: ConsoleSessionCutoff)
        async throws
    {
        try await transaction { connection in
            // Relays signing browsers in at once count the table one after the other.
            try await connection.run("SELECT pg_advisory_xact_lock(\(AdvisoryLock.consoleSessions))", logger: logger)
            let count: PostgresQuery = "SELECT COUNT(*) FROM console_sessions"
            if try await connection.value(count, as: Int64.self, logger: logger) ?? 0 >= maximum {
                _ = try await connection.count(Self.deleteEnded(cutoff), logger: logger)
                if try await connection.value(count, as: Int64.self, logger: logger) ?? 0 >= maximum {
                    try await connection.run(PostgresQuery(unsafeSQL: ConsoleSessionSQL.evictFromTheLargestShare), logger: logger)
                }
            }
            try await connection.run(
                """
                INSERT INTO console_sessions
                    (key, identity_kind, identity_name, token_digest, app_id, csrf_token, created_at_ms, last_seen_at_ms)
                VALUES (\(key), \(session.identityKind), \(session.identityName), \(session.tokenDigest), \(session.app),
                    \(session.csrfToken), \(session.createdAtMs), \(session.lastSeenAtMs))
                ON CONFLICT (key) DO UPDATE SET identity_kind = excluded.identity_kind, identity_name = excluded.identity_name,
                    token_digest = excluded.token_digest, app_id = excluded.app_id, csrf_token = excluded.csrf_token,
                    created_at_ms = excluded.created_at_ms, last_seen_at_ms = excluded.last_seen_at_ms
                """, logger: logger)
        }
    }

    public func consoleSession(key: Data) async throws -> StoredConsoleSession? {
        try await withConnection { connection in
            try await connection.rows(
                """
                SELECT identity_kind, identity_name, token_digest, app_id, csrf_token, created_at_ms, last_seen_at_ms
                FROM console_sessions WHERE key = \(key)
                """, logger: logger
            ) { row in
                let (kind, name, digest, app, csrf, created, seen) = try row.decode(
                    (String, String, Data?, String, String, Int64, Int64).self)
                return StoredConsoleSession(
                    identityKind: kind, identityName: name, tokenDigest: digest, app: app, csrfToken: csrf, createdAtMs: created,
                    lastSeenAtMs: seen)
            }.first
        }
    }

    public func touchConsoleSession(key: Data, atMs: Int64) async throws {
        try await withConnection { connection in
            try await connection.run(
                "UPDATE console_sessions SET last_seen_at_ms = GREATEST(last_seen_at_ms, \(atMs)) WHERE key = \(key)", logger: logger)
        }
    }

    @discardableResult
    public func removeConsoleSessions(identityKind: String, identityName: String) async throws -> Int {
        try await withConnection { connection in
            try await connection.count(
                "DELETE FROM console_sessions WHERE identity_kind = \(identityKind) AND identity_name = \(identityName) RETURNING 1",
                logger: logger)
        }
    }

    @discardableResult
    public func removeConsoleSessions(app: String, apiTokenKind: String) async throws -> Int {
        try await withConnection { connection in
            try await connection.count(
                """
                DELETE FROM console_sessions WHERE app_id = \(app) OR (identity_kind = \(apiTokenKind) AND identity_name = \(app))
                RETURNING 1
                """, logger: logger)
        }
    }

    public func switchConsoleSession(key: Data, toApp app: String) async throws {
        try await withConnection { connection in
            try await connection.run("UPDATE console_sessions SET app_id = \(app) WHERE key = \(key)", logger: logger)
        }
    }

    public func removeConsoleSession(key: Data) async throws {
        try await withConnection { connection in
            try await connection.run("DELETE FROM console_sessions WHERE key = \(key)", logger: logger)
        }
    }

    @discardableResult
    public func pruneConsoleSessions(cutoff: ConsoleSessionCutoff) async throws -> Int {
        try await withConnection { connection in try await connection.count(Self.deleteEnded(cutoff), logger: logger) }
    }

    private static func deleteEnded(_ cutoff: ConsoleSessionCutoff) -> PostgresQuery {
        """
        DELETE FROM console_sessions WHERE last_seen_at_ms <= \(cutoff.idleByMs) OR created_at_ms <= \(cutoff.createdByMs)
        RETURNING 1
        """
    }
}
