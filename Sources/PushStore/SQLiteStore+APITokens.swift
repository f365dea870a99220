import Foundation
import GRDB
import StoreContract

/// Secondary API tokens (`/v3/applications/api_tokens`), stored as digests. The table is the
/// truth; each relay keeps a view of it in memory for authentication (`CredentialDirectory`),
/// reloaded when any relay of the fleet changes it.
extension SQLiteStore {
    /// Adds a token (by its digest) to `app`, unless the app already has `limit`; nil then.
    public func addAPIToken(app: String, digest: Data, prefix: String, limit: Int) async throws -> StoredAPIToken? {
        let stored = StoredAPIToken(app: app, digest: digest, prefix: prefix, createdAtMs: clock())
        return try await pool.write { db in
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM api_tokens WHERE app_id = ?", arguments: [app]) ?? 0
            guard count < limit else { return nil }
            try db.execute(
                sql: "INSERT INTO api_tokens (app_id, token_digest, token_prefix, created_at) VALUES (?, ?, ?, ?)",
                arguments: [app, digest, prefix, stored.createdAtMs])
            return stored
        }
    }

    /// The app's tokens, oldest first.
    public func apiTokens(app: String) async throws -> [StoredAPIToken] {
        try await pool.read { db in try Self.apiTokens(db, app: app) }
    }

    /// Every app's tokens, oldest first. Blocks the caller: for start-up, before serving.
    public func allAPITokens() throws -> [StoredAPIToken] {
        try pool.read { db in try Self.apiTokens(db, app: nil) }
    }

    /// Removes one token of `app`.
    public func removeAPIToken(app: String, _ selector: APITokenSelector) async throws -> APITokenRemoval {
        try await pool.write { db in
            let matches = try Self.apiTokens(db, app: app).filter { token in
                switch selector {
                case .digest(let digest): token.digest == digest
                case .prefix(let prefix): token.prefix == prefix
                }
            }
            guard let match = matches.first else { return .notFound }
            guard matches.count == 1 else { return .ambiguous(matches.count) }
            try db.execute(
                sql: "DELETE FROM api_tokens WHERE app_id = ? AND token_digest = ?", arguments: [app, match.digest])
            // Its sessions die with it (every relay's view already refuses them: their issuer is gone),
            // and so do sessions issued before issuers were recorded: any token may have issued them.
            try db.execute(
                sql: "DELETE FROM session_tokens WHERE app_id = ? AND (issuer = ? OR issuer IS NULL)",
                arguments: [app, CredentialIssuer.hex(match.digest)])
            return .removed(match)
        }
    }

    /// An app has a handful of tokens at most (`limit` above), so reading them all is cheap.
    private static func apiTokens(_ db: Database, app: String?) throws -> [StoredAPIToken] {
        let rows =
            if let app {
                try Row.fetchAll(
                    db,
                    sql: """
                        SELECT app_id, token_digest, token_prefix, created_at FROM api_tokens WHERE app_id = ?
                        ORDER BY created_at, token_digest
                        """, arguments: [app])
            } else {
                try Row.fetchAll(
                    db,
                    sql: """
                        SELECT app_id, token_digest, token_prefix, created_at FROM api_tokens ORDER BY app_id, created_at, token_digest
                        """)
            }
        return rows.map { StoredAPIToken(app: $0[0], digest: $0[1], prefix: $0[2], createdAtMs: $0[3]) }
    }
}
