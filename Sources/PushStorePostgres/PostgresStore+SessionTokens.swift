import Foundation
import PostgresNIO
import StoreContract

/// Session tokens: issued by an app's server for one user (`POST /v3/users/{id}/token`), stored
/// as digests, looked up by digest alone on every request that presents one (once its tag has
/// proved it was issued by the fleet).
extension PostgresStore {
    /// Stores a new session token (by its digest) for `user` of `app`, issued by `issuer`, valid
    /// until `expiresAtMs`. The user's expired tokens go in the same transaction, and the oldest
    /// beyond `StoredSessionToken.maximumPerUser`.
    @discardableResult
    public func addSessionToken(digest: Data, app: String, user: String, issuer: String, expiresAtMs: Int64) async throws
        -> StoredSessionToken
    {
        let now = clock()
        let keep = Int64(StoredSessionToken.maximumPerUser)
        return try await transaction { connection in
            // The user's lock: concurrent issues must not both keep the hundredth token.
            try await connection.run("SELECT pg_advisory_xact_lock(\(AdvisoryLock.user(app: app, user: user)))", logger: logger)
            // Never before the app's revocation: one made by a relay whose clock runs ahead must
            // not take a session issued after it (`SessionRevocationOrder`).
            let revokedBefore = try await connection.value(
                "SELECT revoked_before FROM session_revocations WHERE app_id = \(app)", as: Int64.self, logger: logger)
            let createdAt = SessionRevocationOrder.createdAt(nowMs: now, revokedBeforeMs: revokedBefore)
            try await connection.run(
                "DELETE FROM session_tokens WHERE app_id = \(app) AND user_id = \(user) AND expires_at <= \(now)", logger: logger)
            try await connection.run(
                """
                INSERT INTO session_tokens (token_digest, app_id, user_id, created_at, expires_at, issuer)
                VALUES (\(digest), \(app), \(user), \(createdAt), \(expiresAtMs), \(issuer))
                """, logger: logger)
            try await connection.run(
                """
                DELETE FROM session_tokens WHERE app_id = \(app) AND user_id = \(user) AND token_digest NOT IN (
                    SELECT token_digest FROM session_tokens WHERE app_id = \(app) AND user_id = \(user)
                    ORDER BY created_at DESC LIMIT \(keep))
                """, logger: logger)
            return StoredSessionToken(app: app, user: user, createdAtMs: createdAt, expiresAtMs: expiresAtMs, issuer: issuer)
        }
    }

    /// The session token with this digest, expired or not; nil when there is none (never issued,
    /// revoked or pruned). One primary-key lookup.
    public func sessionToken(digest: Data) async throws -> StoredSessionToken? {
        try await withConnection { connection in
            try await connection.rows(
                "SELECT app_id, user_id, created_at, expires_at, issuer FROM session_tokens WHERE token_digest = \(digest)",
                logger: logger
            ) { row in
                let (app, user, createdAt, expiresAt, issuer) = try row.decode((String, String, Int64, Int64, String?).self)
                return StoredSessionToken(app: app, user: user, createdAtMs: createdAt, expiresAtMs: expiresAt, issuer: issuer)
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

    /// Every session of `app` created before `beforeMs`, and every one stored now whichever
    /// relay's clock stamped it, is refused from now on, on every relay (their views reload at the
    /// notification); `pruneSessionTokens` deletes them later. Returns the instant in force.
    @discardableResult
    public func revokeAllSessionTokens(app: String, beforeMs: Int64) async throws -> Int64 {
        try await transaction { connection in
            // A session issued concurrently may land on either side: it was issued at the same time.
            let newest = try await connection.value(
                "SELECT MAX(created_at) FROM session_tokens WHERE app_id = \(app)", as: Int64.self, logger: logger)
            let previous = try await connection.value(
                "SELECT revoked_before FROM session_revocations WHERE app_id = \(app) FOR UPDATE", as: Int64.self, logger: logger)
            let before = SessionRevocationOrder.revokedBefore(nowMs: beforeMs, newestSessionMs: newest, previousMs: previous)
            try await connection.run(
                """
                INSERT INTO session_revocations (app_id, revoked_before) VALUES (\(app), \(before))
                ON CONFLICT (app_id) DO UPDATE SET revoked_before = excluded.revoked_before
                """, logger: logger)
            try await notifyCredentialChange(app: app, connection)
            return before
        }
    }

    /// Each app's "sessions created before this are refused" (Unix ms).
    public func sessionRevocations() async throws -> [String: Int64] {
        let rows = try await withConnection { connection in
            try await connection.rows("SELECT app_id, revoked_before FROM session_revocations", logger: logger) { row in
                try row.decode((String, Int64).self)
            }
        }
        return Dictionary(rows, uniquingKeysWith: max)
    }

    /// Deletes up to `limit` sessions that can no longer be used: expired, older than
    /// `maximumLifetimeMs`, or created before their app's revocation. Returns how many.
    @discardableResult
    public func pruneSessionTokens(nowMs: Int64, maximumLifetimeMs: Int64, limit: Int) async throws -> Int {
        let oldest = nowMs - maximumLifetimeMs
        return try await withConnection { connection in
            try await connection.count(
                """
                DELETE FROM session_tokens WHERE token_digest IN (
                    SELECT s.token_digest FROM session_tokens s LEFT JOIN session_revocations r ON r.app_id = s.app_id
                    WHERE s.expires_at <= \(nowMs) OR s.created_at <= \(oldest) OR s.created_at < r.revoked_before
                    LIMIT \(Int64(limit)))
                RETURNING 1
                """, logger: logger)
        }
    }

    /// When the last session issued before issuers were recorded stops being usable (Unix ms), or
    /// nil when there is none: until then a token of the old form is looked up.
    public func legacySessionTokensUntil(maximumLifetimeMs: Int64) async throws -> Int64? {
        try await withConnection { connection in
            try await connection.value(
                "SELECT MAX(LEAST(expires_at, created_at + \(maximumLifetimeMs))) FROM session_tokens WHERE issuer IS NULL",
                as: Int64.self, logger: logger)
        }
    }

    /// The shared secret named `name`, created with `fresh` when there is none yet: every relay
    /// of the fleet gets the first one stored.
    public func relaySecret(named name: String, fresh: Data) async throws -> Data {
        try await withConnection { connection in
            try await connection.run(
                "INSERT INTO relay_secrets (name, value) VALUES (\(name), \(fresh)) ON CONFLICT (name) DO NOTHING", logger: logger)
            return try await connection.value("SELECT value FROM relay_secrets WHERE name = \(name)", as: Data.self, logger: logger)
                ?? fresh
        }
    }
}
