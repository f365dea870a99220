import Foundation
import PostgresNIO
import StoreContract

/// Secondary API tokens (`/v3/applications/api_tokens`), stored as digests. The table is the
/// truth; each relay keeps a view of it in memory (`CredentialDirectory`), which every change here
/// tells the fleet to reload (`c:<app>` on `pushrelay_registry`, delivered at commit).
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
            try await notifyCredentialChange(app: app, connection)
            return stored
        }
    }

    /// The app's tokens, oldest first.
    public func apiTokens(app: String) async throws -> [StoredAPIToken] {
        try await withConnection { connection in try await Self.apiTokens(connection, app: app, logger: logger) }
    }

    /// Every app's tokens, oldest first.
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
                case .prefix(let prefix): token.prefix.sameBytes(as: prefix)
                }
            }
            guard let match = matches.first else { return .notFound }
            guard matches.count == 1 else { return .ambiguous(matches.count) }
            try await connection.run(
                "DELETE FROM api_tokens WHERE app_id = \(app) AND token_digest = \(match.digest)", logger: logger)
            // Its sessions die with it (every relay's view already refuses them: their issuer is gone),
            // and so do sessions issued before issuers were recorded: any token may have issued them.
            try await connection.run(
                "DELETE FROM session_tokens WHERE app_id = \(app) AND (issuer = \(CredentialIssuer.hex(match.digest)) OR issuer IS NULL)",
                logger: logger)
            try await notifyCredentialChange(app: app, connection)
            return .removed(match)
        }
    }

    /// Tells every relay, at commit, that `app`'s credentials changed (`RegistryListener`).
    func notifyCredentialChange(app: String, _ connection: PostgresConnection) async throws {
        let payload = RegistryListener.credentialPrefix + app
        try await connection.run("SELECT pg_notify(\(RegistryListener.channel), \(payload))", logger: logger)
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
