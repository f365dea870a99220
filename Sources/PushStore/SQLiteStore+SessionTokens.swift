import Foundation
import GRDB
import StoreContract

/// Session tokens: issued by an app's server for one user (`POST /v3/users/{id}/token`), stored
/// as digests, looked up by digest alone on every request that presents one (once its tag has
/// proved it was issued by the fleet).
extension SQLiteStore {
    /// Stores a new session token (by its digest) for `user` of `app`, issued by `issuer`, valid
    /// until `expiresAtMs`. The user's expired tokens go in the same transaction, and the oldest
    /// beyond `StoredSessionToken.maximumPerUser`.
    @discardableResult
    public func addSessionToken(digest: Data, app: String, user: String, issuer: String, expiresAtMs: Int64) async throws
        -> StoredSessionToken
    {
        let now = clock()
        return try await pool.write { db in
            // Never before the app's revocation: one made by a relay whose clock runs ahead must
            // not take a session issued after it (`SessionRevocationOrder`).
            let revokedBefore = try Int64.fetchOne(
                db, sql: "SELECT revoked_before FROM session_revocations WHERE app_id = ?", arguments: [app])
            let createdAt = SessionRevocationOrder.createdAt(nowMs: now, revokedBeforeMs: revokedBefore)
            try db.execute(
                sql: "DELETE FROM session_tokens WHERE app_id = ? AND user_id = ? AND expires_at <= ?",
                arguments: [app, user, now])
            try db.execute(
                sql: """
                    INSERT INTO session_tokens (token_digest, app_id, user_id, created_at, expires_at, issuer)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """,
                arguments: [digest, app, user, createdAt, expiresAtMs, issuer])
            try db.execute(
                sql: """
                    DELETE FROM session_tokens WHERE app_id = ? AND user_id = ? AND token_digest NOT IN (
                        SELECT token_digest FROM session_tokens WHERE app_id = ? AND user_id = ?
                        ORDER BY created_at DESC LIMIT ?)
                    """,
                arguments: [app, user, app, user, StoredSessionToken.maximumPerUser])
            return StoredSessionToken(app: app, user: user, createdAtMs: createdAt, expiresAtMs: expiresAtMs, issuer: issuer)
        }
    }

    /// The session token with this digest, expired or not; nil when there is none (never issued,
    /// revoked or pruned). One primary-key lookup.
    public func sessionToken(digest: Data) async throws -> StoredSessionToken? {
        try await pool.read { db in
            let statement = try db.cachedStatement(
                sql: "SELECT app_id, user_id, created_at, expires_at, issuer FROM session_tokens WHERE token_digest = ?")
            guard let row = try Row.fetchOne(statement, arguments: [digest]) else { return nil }
            return StoredSessionToken(app: row[0], user: row[1], createdAtMs: row[2], expiresAtMs: row[3], issuer: row[4])
        }
    }

    /// Removes every session token of `user` of `app`; returns how many there were.
    @discardableResult
    public func revokeSessionTokens(app: String, user: String) async throws -> Int {
        try await pool.write { db in
            try db.execute(sql: "DELETE FROM session_tokens WHERE app_id = ? AND user_id = ?", arguments: [app, user])
            return db.changesCount
        }
    }

    /// Every session of `app` created before `beforeMs`, and every one stored now, is refused from
    /// now on: one row, which every relay's view reads (`sessionRevocations`); `pruneSessionTokens`
    /// deletes them later, in batches, so a million sessions do not hold the writer here. Returns
    /// the instant in force.
    @discardableResult
    public func revokeAllSessionTokens(app: String, beforeMs: Int64) async throws -> Int64 {
        try await pool.write { db in
            let newest = try Int64.fetchOne(db, sql: "SELECT MAX(created_at) FROM session_tokens WHERE app_id = ?", arguments: [app])
            let previous = try Int64.fetchOne(
                db, sql: "SELECT revoked_before FROM session_revocations WHERE app_id = ?", arguments: [app])
            let before = SessionRevocationOrder.revokedBefore(nowMs: beforeMs, newestSessionMs: newest, previousMs: previous)
            try db.execute(
                sql:
                    "INSERT INTO session_revocations (app_id, revoked_before) VALUES (?, ?) ON CONFLICT (app_id) DO UPDATE SET revoked_before = excluded.revoked_before",
                arguments: [app, before])
            return before
        }
    }

    /// Each app's "sessions created before this are refused" (Unix ms).
    public func sessionRevocations() async throws -> [String: Int64] {
        try await pool.read { db in
            var revocations: [String: Int64] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT app_id, revoked_before FROM session_revocations") {
                revocations[row[0]] = row[1]
            }
            return revocations
        }
    }

    /// Deletes up to `limit` sessions that can no longer be used: expired, older than
    /// `maximumLifetimeMs`, or created before their app's revocation. Returns how many.
    @discardableResult
    public func pruneSessionTokens(nowMs: Int64, maximumLifetimeMs: Int64, limit: Int) async throws -> Int {
        try await pool.write { db in
            try db.execute(
                sql: """
                    DELETE FROM session_tokens WHERE token_digest IN (
                        SELECT s.token_digest FROM session_tokens s LEFT JOIN session_revocations r ON r.app_id = s.app_id
                        WHERE s.expires_at <= ? OR s.created_at <= ? OR s.created_at < r.revoked_before
                        LIMIT ?)
                    """, arguments: [nowMs, nowMs - maximumLifetimeMs, limit])
            return db.changesCount
        }
    }

    /// When the last session issued before issuers were recorded stops being usable (Unix ms), or
    /// nil when there is none: until then a token of the old form is looked up.
    public func legacySessionTokensUntil(maximumLifetimeMs: Int64) async throws -> Int64? {
        try await pool.read { db in
            try Int64.fetchOne(
                db, sql: "SELECT MAX(MIN(expires_at, created_at + ?)) FROM session_tokens WHERE issuer IS NULL",
                arguments: [maximumLifetimeMs])
        }
    }

    /// The shared secret named `name`, created with `fresh` when there is none yet. Every relay
    /// of a fleet gets the same one (the first to ask stores its own).
    public func relaySecret(named name: String, fresh: Data) async throws -> Data {
        try await pool.write { db in
            try db.execute(
                sql: "INSERT INTO relay_secrets (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING", arguments: [name, fresh])
            return try Data.fetchOne(db, sql: "SELECT value FROM relay_secrets WHERE name = ?", arguments: [name]) ?? fresh
        }
    }
}
