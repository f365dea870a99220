import Hummingbird
import PushStore
import StoreContract

/// `/v3/users/{user_id}/token`: session tokens, which an app's server issues for one user and
/// hands to that user's device, so the device never holds an API token. Server credentials only.
/// A session records the API token that issued it and dies with it; it lives at most the app's
/// `limits.max_session_lifetime` (a week by default). `DELETE /v3/applications/session_tokens`
/// (master token) revokes every session of the app at once, on every relay.
extension RESTAPI {
    /// Lifetime of a session token issued without `expires_at`: a week (or the app's maximum, if
    /// shorter), so a device that is never told to refresh is locked out within days, not never.
    static let defaultSessionTokenLifetimeMs: Int64 = 7 * 24 * 60 * 60 * 1000

    func registerSessionTokenRoutes(on v3: RouterGroup<RelayRequestContext>) {
        // Issues a token. The user need not be known yet (the relay learns users on their first
        // write, typically the device registering its device token with this very token).
        v3.post("users/:user_id/token") { request, context in
            let app = try context.requireApp()
            let user = try RequestParameter.decoded("user_id", from: context)
            let body = try await request.jsonObject(limit: bodyLimit)
            let now = clock()
            let expiresAt = try Self.sessionTokenExpiry(body, now: now, maximumMs: app.limits.maxSessionLifetime.milliseconds)
            let token = credentials.sessionTokens.generate()
            try await store.addSessionToken(
                digest: CredentialToken.digest(token), app: app.appID, user: user,
                issuer: CredentialIssuer.hex(context.caller?.digest ?? []), expiresAtMs: expiresAt)
            context.logger.info("session token issued", metadata: ["user": .string(user), "expires_at": .stringConvertible(expiresAt)])
            return SessionTokenIssued(userID: user, token: token, expiresAt: expiresAt)
        }

        // Revokes every session token of the user; succeeds when there was none.
        v3.delete("users/:user_id/token") { _, context in
            let app = try context.requireApp()
            let user = try RequestParameter.decoded("user_id", from: context)
            let count = try await store.revokeSessionTokens(app: app.appID, user: user)
            context.logger.info("session tokens revoked", metadata: ["user": .string(user), "count": .stringConvertible(count)])
            return EmptyAnswer()
        }

        // Revokes every session token of the app, on every relay of the fleet (not Sendbird's:
        // for a leak of unknown extent). Master token only, like managing API tokens.
        v3.delete("applications/session_tokens") { _, context in
            let app = try context.requireMasterToken()
            // Sessions created in this very millisecond go too, and every one stored, whichever
            // relay's clock stamped it: none issued before the answer survives.
            let before = try await store.revokeAllSessionTokens(app: app.appID, beforeMs: clock() + 1)
            credentials.revokedSessions(app: app.appID, beforeMs: before)
            context.logger.notice("every session token of the app revoked")
            return SessionsRevoked(revokedBefore: before)
        }
    }

    /// `expires_at` (Unix ms, an integer in the future), capped at `maximumMs` from now; or a week
    /// from now (at most `maximumMs`). The answer says which instant was granted.
    static func sessionTokenExpiry(_ body: JSONObject, now: Int64, maximumMs: Int64) throws(APIError) -> Int64 {
        let latest = now + maximumMs
        guard let expiresAt = try body.integer("expires_at") else { return min(now + defaultSessionTokenLifetimeMs, latest) }
        guard expiresAt >= 0 else { throw .negative("expires_at") }
        guard expiresAt > now else { throw .invalidValue("expires_at", "must be in the future (Unix milliseconds)") }
        return min(expiresAt, latest)
    }
}

/// `POST …/token`, as Sendbird answers it.
private struct SessionTokenIssued: ResponseEncodable {
    var userID: String
    var token: String
    var expiresAt: Int64
    enum CodingKeys: String, CodingKey { case userID = "user_id", token, expiresAt = "expires_at" }
}

/// `DELETE /v3/applications/session_tokens`: sessions created before this instant are refused.
private struct SessionsRevoked: ResponseEncodable {
    var revokedBefore: Int64
    enum CodingKeys: String, CodingKey { case revokedBefore = "revoked_before" }
}

/// `{}`, Sendbird's answer to a revocation.
struct EmptyAnswer: ResponseEncodable {}
