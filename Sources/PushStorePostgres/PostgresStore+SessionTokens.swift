import Foundation
import PostgresNIO
import PushStore

/// Session tokens: issued by an app's server for one user (`POST /v3/users/{id}/token`), stored
/// as digests, looked up by digest alone on every request that presents one.
extension PostgresStore {
    /// Stores a new session token (by its digest) for `user` of `app`, valid until `expiresAtMs`.
    /// The user's expired tokens go in the same transaction, and the oldest beyond
    /// `StoredSessionToken.maximumPerUser`.
    @discardableResult
    public func addSessionToken(digest: Data, app: String, user: String, expiresAtMs: Int64) async throws -> StoredSessionToken {
        let now = clock()
        let stored = StoredSessionToken(app: app, user: user, createdAtMs: now, expiresAtMs: expiresAtMs)
        let keep = Int64(StoredSessionToken.maximumPerUser)
        try await transaction { connection in
            // The user's lock: concurrent issues must not both keep the hundredth token.
            try await connection.run("SELECT pg_advisory_xact_lock(\(AdvisoryLock.user(app: app, user: user)))", logger: logger)
            try await connection.run(
                "DELETE FROM session_tokens WHERE app_id = \(app) AND user_id = \(user) AND expires_at <= \(now)", logger: logger)
            try await connection.run(
                """
                INSERT INTO session_tokens (token_digest, app_id, user_id, created_at, expires_at)
                VALUES (\(digest), \(app), \(user), \(now), \(expiresAtMs))
                """, logger: logger)
            try await connection.run(
                """
                DELETE FROM session_tokens WHERE app_id = \(app) AND user_id = \(user) AND token_digest NOT IN (
                    SELECT token_digest FROM session_tokens WHERE app_id = \(app) AND user_id = \(user)
                    ORDER BY created_at DESC LIMIT \(keep))
                """, logger: logger)
        }
        return stored
    }

    /// The session token with this digest, expired or not; nil when there is none (never issued,
    /// revoked or pruned). One primary-key lookup.
    public func sessionToken(digest: Data) async throws -> StoredSessionToken? {
        try await withConnection { connection in
            try await connection.rows(
                "SELECT app_id, user_id, created_at, expires_at FROM session_tokens WHERE token_digest = \(digest)", logger: logger
            ) { row in
                let (app, user, createdAt, expiresAt) = try row.decode((String, String, Int64, Int64).self)
                return StoredSessionToken(app: app, user: user, createdAtMs: createdAt, expiresAtMs: expiresAt)
            }.first
        }
    }

    /// Removes every session token of `user` of `app`; returns how many there were.
    @discardableResult
    public func revokeSessionTokens(app: String, user: String) async throws -> Int {
        try await withConnection { connection in
            try await connection.count(
                "DELETE FROM session_tokens WHERE app_id = \(app) AND user_id = \(user) RETURNING 1", logger: logger)
        }
    }
}
