import Foundation

/// Secondary API tokens (per app) and session tokens (per user), stored as SHA-256 digests only:
/// a copy of the database must not let anyone call the API.
public protocol CredentialStore: Sendable {
    /// Adds a token (by its digest) to `app`, unless the app already has `limit`; nil then.
    func addAPIToken(app: String, digest: Data, prefix: String, limit: Int) async throws -> StoredAPIToken?
    /// The app's tokens, oldest first.
    func apiTokens(app: String) async throws -> [StoredAPIToken]
    /// Every app's tokens, oldest first (read once at start-up).
    func allAPITokens() async throws -> [StoredAPIToken]
    /// Removes one token of `app`.
    func removeAPIToken(app: String, _ selector: APITokenSelector) async throws -> APITokenRemoval

    /// Stores a new session token (by its digest) for `user` of `app`, valid until `expiresAtMs`.
    /// The user's expired tokens go in the same transaction, and the oldest beyond
    /// `StoredSessionToken.maximumPerUser`.
    @discardableResult
    func addSessionToken(digest: Data, app: String, user: String, expiresAtMs: Int64) async throws -> StoredSessionToken
    /// The session token with this digest, expired or not; nil when there is none.
    func sessionToken(digest: Data) async throws -> StoredSessionToken?
    /// Removes every session token of `user` of `app`; returns how many there were.
    @discardableResult
    func revokeSessionTokens(app: String, user: String) async throws -> Int
}
