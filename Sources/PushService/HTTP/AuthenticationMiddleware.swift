import Foundation
import HTTPTypes
import Hummingbird
import PushStore

/// Finds who a `/v3` request comes from and puts it in the context (`Caller`); what the caller
/// may do is `RelayRequestContext+Access`'s business.
///
/// - `Api-Token`: the app's master token (`AppRegistry`) or one of its secondary tokens
///   (`SecondaryAPITokens`), both in memory, compared as SHA-256 digests in constant time.
///   Wrong: 401, 400401.
/// - otherwise `Session-Token`: checked for shape first (junk never reaches the database), then
///   one primary-key lookup by digest. Malformed, unknown or revoked: 401, 400302; expired:
///   401, 400309.
/// - neither: 401, 400401.
///
/// Tokens are never logged.
struct AuthenticationMiddleware: RouterMiddleware {
    typealias Context = RelayRequestContext

    let apps: AppRegistry
    let secondaryAPITokens: SecondaryAPITokens
    let store: any RelayStore
    /// Unix milliseconds; decides whether a session token has expired.
    let clock: @Sendable () -> Int64

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let caller = try await authenticate(request.headers)
        var context = context
        context.caller = caller
        context.logger[metadataKey: "app_id"] = .string(caller.app.appID)
        if case .sessionToken(let user) = caller.credential {
            context.logger[metadataKey: "session_user"] = .string(user)
        }
        return try await next(request, context)
    }

    func authenticate(_ headers: HTTPFields) async throws -> Caller {
        if let token = headers[.apiToken] {
            let digest = AppRegistry.digest(token)
            if let app = apps.app(forDigest: digest) {
                return Caller(app: app, credential: .masterAPIToken)
            }
            if let appID = secondaryAPITokens.app(forDigest: digest), let app = apps.app(withID: appID) {
                return Caller(app: app, credential: .secondaryAPIToken)
            }
            throw APIError.invalidAPIToken
        }
        if let token = headers[.sessionToken] {
            guard CredentialToken.isWellFormed(token) else { throw APIError.invalidSessionToken }
            // An app removed from the configuration takes its users' tokens with it.
            guard let stored = try await store.sessionToken(digest: CredentialToken.digest(token)),
                let app = apps.app(withID: stored.app)
            else { throw APIError.invalidSessionToken }
            guard !stored.isExpired(atMs: clock()) else { throw APIError.sessionTokenExpired }
            return Caller(app: app, credential: .sessionToken(user: stored.user))
        }
        throw APIError.invalidAPIToken
    }
}

extension HTTPField.Name {
    /// Sendbird's authentication header for servers.
    static let apiToken = HTTPField.Name("Api-Token")!
    /// The header a user's device authenticates with.
    static let sessionToken = HTTPField.Name("Session-Token")!
}
