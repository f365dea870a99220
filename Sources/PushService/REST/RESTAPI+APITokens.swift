import Foundation
import Hummingbird
import LogRedaction
import PushStore
import StoreContract

/// `/v3/applications/api_tokens`: secondary API tokens, which authenticate like the master
/// token but cannot manage API tokens. Master token only.
///
/// Deviation from Sendbird, which lists tokens in full: the relay stores only digests, so the
/// full token is in the answer to `POST` and nowhere else; the listing shows its first four
/// characters and `…`. A database backup or a log of listings then reveals no usable token.
/// `DELETE` takes the full token, or the listed form when it names exactly one token (so a lost
/// token can still be revoked).
extension RESTAPI {
    /// Secondary tokens per app. Every `Api-Token` check compares against all of them, so the
    /// number is bounded; a few servers rotating tokens need far fewer.
    static let maximumAPITokensPerApp = 20

    func registerAPITokenRoutes(on v3: RouterGroup<RelayRequestContext>) {
        v3.post("applications/api_tokens") { request, context in
            let app = try context.requireMasterToken()
            // No fields are defined; the body is still checked so junk is a 400, not ignored.
            _ = try await request.jsonObject(limit: bodyLimit)
            let token = CredentialToken.generate()
            guard
                let stored = try await store.addAPIToken(
                    app: app.appID, digest: CredentialToken.digest(token), prefix: CredentialToken.prefix(of: token),
                    limit: Self.maximumAPITokensPerApp)
            else {
                throw APIError.invalidValue(
                    "api_tokens", "are at most \(Self.maximumAPITokensPerApp) per app; revoke one first")
            }
            credentials.added(stored)
            context.logger.info("secondary API token created")
            return APITokenBody(token: token, createdAt: stored.createdAtMs)
        }

        v3.get("applications/api_tokens") { _, context in
            let app = try context.requireMasterToken()
            let tokens = try await store.apiTokens(app: app.appID)
            return APITokenList(apiTokens: tokens.map(APITokenBody.init(listed:)))
        }

        v3.delete("applications/api_tokens/:api_token") { _, context in
            let app = try context.requireMasterToken()
            let raw = try RequestParameter.decoded("api_token", from: context)
            let selector: APITokenSelector
            if raw.hasSuffix("…"), raw.count == CredentialToken.visiblePrefixLength + 1 {
                selector = .prefix(String(raw.dropLast()))
            } else {
                selector = .digest(CredentialToken.digest(raw))
            }
            // Its sessions go with it (`CredentialStore.removeAPIToken`).
            switch try await store.removeAPIToken(app: app.appID, selector) {
            case .removed(let stored):
                credentials.removed(stored)
                context.logger.info("secondary API token revoked")
                return APITokenBody(listed: stored)
            case .notFound:
                throw APIError.notFound("API token")
            case .ambiguous(let count):
                throw APIError.invalidValue("api_token", "matches \(count) tokens; give the whole token")
            }
        }
    }
}

/// One token: in full when just created, else in its listed form.
private struct APITokenBody: ResponseEncodable {
    var token: String
    var createdAt: Int64
    enum CodingKeys: String, CodingKey { case token, createdAt = "created_at" }

    init(token: String, createdAt: Int64) {
        self.token = token
        self.createdAt = createdAt
    }

    init(listed stored: StoredAPIToken) {
        self.init(token: Redaction.redacted(prefix: stored.prefix), createdAt: stored.createdAtMs)
    }
}

/// `GET /v3/applications/api_tokens`.
private struct APITokenList: ResponseEncodable {
    var apiTokens: [APITokenBody]
    enum CodingKeys: String, CodingKey { case apiTokens = "api_tokens" }
}
