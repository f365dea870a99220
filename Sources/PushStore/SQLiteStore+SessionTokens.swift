import Foundation
import GRDB

/// Session tokens: issued by an app's server for one user (`POST /v3/users/{id}/token`), stored
/// as digests, looked up by digest alone on every request that presents one.
extension SQLiteStore {
    /// Stores a new session token (by its digest) for `user` of `app`, valid until `expiresAtMs`.
    /// The user's expired tokens go in the same transaction, and the oldest beyond
    /// `StoredSessionToken.maximumPerUser`.
    @discardableResult
    public func addSessionToken(digest: Data, app: String, user: String, expiresAtMs: Int64) async throws -> StoredSessionToken {
        let now = clock()
        let stored = StoredSessionToken(app: app, user: user, createdAtMs: now, expiresAtMs: expiresAtMs)
        try await pool.write { db in
            try db.execute(
                sql: "DELETE FROM session_tokens WHERE app_id = ? AND user_id = ? AND expires_at <= ?",
                arguments: [app, user, now])
            try db.execute(
                sql: """
                    INSERT INTO session_tokens (token_digest, app_id, user_id, created_at, expires_at)
                    VALUES (?, ?, ?, ?, ?)
                    """,
                arguments: [digest, app, user, now, expiresAtMs])
            try db.execute(
                sql: """
                    DELETE FROM session_tokens WHERE app_id = ? AND user_id = ? AND token_digest NOT IN (
                        SELECT token_digest FROM session_tokens WHERE app_id = ? AND user_id = ?
                        ORDER BY created_at DESC LIMIT ?)
                    """,
                arguments: [app, user, app, user, StoredSessionToken.maximumPerUser])
        }
        return stored
    }

    /// The session token with this digest, expired or not; nil when there is none (never issued,
    /// revoked or pruned). One primary-key lookup.
    public func sessionToken(digest: Data) async throws -> StoredSessionToken? {
        try await pool.read { db in
            let statement = try db.cachedStatement(
                sql: "SELECT app_id, user_id, created_at, expires_at FROM session_tokens WHERE token_digest = ?")
            guard let row = try Row.fetchOne(statement, arguments: [digest]) else { return nil }
            return StoredSessionToken(app: row[0], user: row[1], createdAtMs: row[2], expiresAtMs: row[3])
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
}
