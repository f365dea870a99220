import Foundation
import PostgresNIO
import PushStore

/// Secondary API tokens (`/v3/applications/api_tokens`), stored as digests. The service keeps
/// them in memory for authentication; the table is what survives a restart.
extension PostgresStore {
    /// Adds a token (by its digest) to `app`, unless the app already has `limit`; nil then. The
    /// app's lock makes the count and the insert one step across the fleet.
    public func addAPIToken(app: String, digest: Data, prefix: String, limit: Int) async throws -> StoredAPIToken? {
        let stored = StoredAPIToken(app: app, digest: digest, prefix: prefix, createdAtMs: clock())
        return try await transaction { connection in
            try await connection.run("SELECT pg_advisory_xact_lock(\(AdvisoryLock.apiTokens(app: app)))", logger: logger)
            let count =
                try await connection.value("SELECT COUNT(*) FROM api_tokens WHERE app_id = \(app)", as: Int.self, logger: logger) ?? 0
            guard count < limit else { return nil }
            try await connection.run(
                """
                INSERT INTO api_tokens (app_id, token_digest, token_prefix, created_at)
                VALUES (\(app), \(digest), \(prefix), \(stored.createdAtMs))
                """, logger: logger)
            return stored
        }
    }

    /// The app's tokens, oldest first.
    public func apiTokens(app: String) async throws -> [StoredAPIToken] {
        try await withConnection { connection in try await Self.apiTokens(connection, app: app, logger: logger) }
    }

    /// Every app's tokens, oldest first (read once at start-up).
    public func allAPITokens() async throws -> [StoredAPIToken] {
        try await withConnection { connection in try await Self.apiTokens(connection, app: nil, logger: logger) }
    }

    /// Removes one token of `app`.
    public func removeAPIToken(app: String, _ selector: APITokenSelector) async throws -> APITokenRemoval {
        try await transaction { connection in
            try await connection.run("SELECT pg_advisory_xact_lock(\(AdvisoryLock.apiTokens(app: app)))", logger: logger)
            let matches = try await Self.apiTokens(connection, app: app, logger: logger).filter { token in
                switch selector {
                case .digest(let digest): token.digest == digest
                case .prefix(let prefix): token.prefix == prefix
                }
            }
            guard let match = matches.first else { return .notFound }
            guard matches.count == 1 else { return .ambiguous(matches.count) }
            try await connection.run(
                "DELETE FROM api_tokens WHERE app_id = \(app) AND token_digest = \(match.digest)", logger: logger)
            return .removed(match)
        }
    }

    /// An app has a handful of tokens at most (`limit` above), so reading them all is cheap.
    private static func apiTokens(_ connection: PostgresConnection, app: String?, logger: Logger) async throws -> [StoredAPIToken] {
        let query: PostgresQuery =
            if let app {
                """
                SELECT app_id, token_digest, token_prefix, created_at FROM api_tokens WHERE app_id = \(app)
                ORDER BY created_at, token_digest
                """
            } else {
                // Apps in byte order, as SQLite sorts them, whatever this database's collation.
                """
                SELECT app_id, token_digest, token_prefix, created_at FROM api_tokens
                ORDER BY app_id COLLATE "C", created_at, token_digest
                """
            }
        return try await connection.rows(query, logger: logger) { row in
            let (app, digest, prefix, createdAt) = try row.decode((String, Data, String, Int64).self)
            return StoredAPIToken(app: app, digest: digest, prefix: prefix, createdAtMs: createdAt)
        }
    }
}
