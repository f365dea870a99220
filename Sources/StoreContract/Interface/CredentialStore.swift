import Foundation

/// Secondary API tokens (per app) and session tokens (per user), stored as SHA-256 digests only:
/// a copy of the database must not let anyone call the API. The database is the one truth for
/// both; each relay's in-memory view (`CredentialDirectory`) follows it through `credentialWatch`.
public protocol CredentialStore: Sendable {
    /// Adds a token (by its digest) to `app`, unless the app already has `limit`; nil then.
    func addAPIToken(app: String, digest: Data, prefix: String, limit: Int) async throws -> StoredAPIToken?
    /// The app's tokens, oldest first.
    func apiTokens(app: String) async throws -> [StoredAPIToken]
    /// Every app's tokens, oldest first.
    func allAPITokens() async throws -> [StoredAPIToken]
    /// Removes one token of `app`, and the sessions it issued.
    func removeAPIToken(app: String, _ selector: APITokenSelector) async throws -> APITokenRemoval

    /// Stores a new session token (by its digest) for `user` of `app`, issued by the API token
    /// whose digest's hex is `issuer` (`CredentialIssuer`), valid until `expiresAtMs`. The user's
    /// expired tokens go in the same transaction, and the oldest beyond
    /// `StoredSessionToken.maximumPerUser`.
    @discardableResult
    func addSessionToken(digest: Data, app: String, user: String, issuer: String, expiresAtMs: Int64) async throws
        -> StoredSessionToken
    /// The session token with this digest, expired or not; nil when there is none.
    func sessionToken(digest: Data) async throws -> StoredSessionToken?
    /// Removes every session token of `user` of `app`; returns how many there were.
    @discardableResult
    func revokeSessionTokens(app: String, user: String) async throws -> Int
    /// Refuses, from now on and on every relay, every session of `app` created before `beforeMs`.
    @discardableResult
    func revokeAllSessionTokens(app: String, beforeMs: Int64) async throws -> Int64
    /// Each app's revocation instant (sessions created before it are refused), Unix ms.
    func sessionRevocations() async throws -> [String: Int64]
    /// Deletes up to `limit` sessions no longer usable at `nowMs` (expired, past
    /// `maximumLifetimeMs`) or revoked with their app's; returns how many.
    @discardableResult
    func pruneSessionTokens(nowMs: Int64, maximumLifetimeMs: Int64, limit: Int) async throws -> Int
    /// Until when a session issued before issuers were recorded may still be used; nil: none left.
    func legacySessionTokensUntil(maximumLifetimeMs: Int64) async throws -> Int64?
    /// A secret every relay sharing this database shares: the stored one, or `fresh` stored now.
    func relaySecret(named name: String, fresh: Data) async throws -> Data

    /// Credential changes made by other relays sharing this database.
    var credentialWatch: CredentialWatch { get }
}
