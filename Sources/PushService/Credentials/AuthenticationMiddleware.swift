import Foundation
import HTTPTypes
import Hummingbird
import PushStore
import StoreContract

/// Finds who a `/v3` request comes from and puts it in the context (`Caller`), then holds it to
/// its credential's request rate (`CredentialRateLimiter`); what the caller may do is
/// `RelayRequestContext+Access`'s business.
///
/// - `Api-Token`: the app's master token (`AppRegistry`) or one of its secondary tokens
///   (`CredentialDirectory`, the database's tokens as this relay last confirmed them), both in
///   memory, compared as SHA-256 digests in constant time. Wrong: 401, 400401. A secondary token
///   while the view cannot be confirmed (the database out of reach): 503.
/// - otherwise `Session-Token`: its tag proves the fleet made it (`SessionTokenFormat`), so a
///   forged or malformed one is refused without the database; then one primary-key lookup by
///   digest, and the checks a session dies by: expired or older than the app's
///   `max_session_lifetime` (401, 400309); revoked, alone or with its app's sessions, or issued by
///   an API token that no longer is (401, 400302).
/// - neither: 401, 400401.
///
/// Tokens are never logged.
struct AuthenticationMiddleware: RouterMiddleware {
    typealias Context = RelayRequestContext

    let apps: AppRegistry
    let credentials: CredentialDirectory
    let store: any RelayStore
    let rateLimits: CredentialRateLimiter
    /// Each app's costly requests, a few at a time.
    let costlySlots: CostlyRequestSlots
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
        let cost = RequestCost.units(method: request.method, path: request.uri.path[...])
        try rateLimits.admit(caller, cost: cost)
        // A costly request runs in one of its app's few slots, a session's too (in the devices'
        // lane): its own user's list reads the app's window on SQLite, and an app may hold many
        // session tokens.
        guard cost > 1 else { return try await next(request, context) }
        let lane: CostlyRequestSlots.Lane
        if case .sessionToken = caller.credential { lane = .device } else { lane = .server }
        try await costlySlots.enter(app: caller.app.appID, lane: lane)
        defer { costlySlots.leave(app: caller.app.appID, lane: lane) }
        return try await next(request, context)
    }

    func authenticate(_ headers: HTTPFields) async throws -> Caller {
        if let token = headers[.apiToken] {
            let digest = AppRegistry.digest(token)
            if let app = apps.app(forDigest: digest) {
                return Caller(app: app, credential: .masterAPIToken, digest: digest)
            }
            switch credentials.app(forDigest: digest) {
            case .app(let appID):
                guard let app = apps.app(withID: appID) else { throw APIError.invalidAPIToken }
                return Caller(app: app, credential: .secondaryAPIToken, digest: digest)
            case .unknown:
                throw APIError.invalidAPIToken
            case .unverifiable:
                throw APIError.credentialsUnverifiable
            }
        }
        if let token = headers[.sessionToken] {
            return try await authenticateSession(token)
        }
        throw APIError.invalidAPIToken
    }

    private func authenticateSession(_ token: String) async throws -> Caller {
        let now = clock()
        switch credentials.sessionTokens.classify(token) {
        case .tagged: break
        case .legacy: guard let until = credentials.legacyUntilMs, now < until else { throw APIError.invalidSessionToken }
        case .forged: throw APIError.invalidSessionToken
        }
        let digest = CredentialToken.digest(token)
        // An app removed from the configuration takes its users' tokens with it.
        guard let stored = try await store.sessionToken(digest: digest), let app = apps.app(withID: stored.app) else {
            throw APIError.invalidSessionToken
        }
        guard !stored.isExpired(atMs: now, maximumLifetimeMs: app.limits.maxSessionLifetime.milliseconds) else {
            throw APIError.sessionTokenExpired
        }
        // Revocations and issuers are the view's: one not confirmed lately cannot vouch for them.
        guard credentials.isCurrent else { throw APIError.credentialsUnverifiable }
        if let revokedBefore = credentials.revokedBefore(app: app.appID), stored.createdAtMs < revokedBefore {
            throw APIError.invalidSessionToken
        }
        if let issuer = stored.issuer, !apps.isMasterToken(digestHex: issuer, ofApp: app.appID),
            !credentials.hasSecondaryToken(app: app.appID, issuer: issuer)
        {
            throw APIError.invalidSessionToken
        }
        return Caller(app: app, credential: .sessionToken(user: stored.user), digest: Array(digest))
    }
}

extension HTTPField.Name {
    /// Sendbird's authentication header for servers.
    static let apiToken = HTTPField.Name("Api-Token")!
    /// The header a user's device authenticates with.
    static let sessionToken = HTTPField.Name("Session-Token")!
}
