import Crypto
import PushCore
import Foundation

/// Who may open the console and what they may see, decided with the REST API's own credential
/// code: an app's master token (`AppRegistry`) or a secondary one (`CredentialDirectory`, the
/// fleet's tokens as this relay last confirmed them), or a `console.users` entry. A session is
/// checked again on every request, so a revoked secondary token or a removed app ends it at once,
/// on every relay.
struct ConsoleAccess: Sendable {
    enum SignIn: Sendable, Equatable {
        case signedIn(ConsoleIdentity, app: String)
        case refused
        /// The fleet's credentials could not be confirmed lately (the database is out of reach).
        case unverifiable
    }

    enum Check: Sendable, Equatable {
        case valid
        case revoked
        case unverifiable
    }

    typealias User = ConsoleUsers.User

    let apps: AppRegistry
    let credentials: CredentialDirectory
    /// The configured console users as they are now (SIGHUP replaces them).
    let consoleUsers: ConsoleUsers
    private var users: [User] { consoleUsers.current }

    init(apps: AppRegistry, credentials: CredentialDirectory, users: ConsoleUsers) {
        self.apps = apps
        self.credentials = credentials
        consoleUsers = users
    }

    /// Signs in with a console user's name and secret, or (no name) with an API token.
    func signIn(name: String, secret: String) -> SignIn {
        let digest = AppRegistry.digest(secret)
        if name.isEmpty { return signIn(apiTokenDigest: digest) }
        // Every user's digest is compared, matching or not, so timing tells nothing of which
        // names exist.
        var found: User?
        for user in users where AppRegistry.constantTimeEqual(user.digest, digest) && user.name == name { found = user }
        guard let found, let first = allowedApps(found).first else { return .refused }
        return .signedIn(.user(name: found.name, fingerprint: found.fingerprint), app: first.appID)
    }

    private func signIn(apiTokenDigest digest: [UInt8]) -> SignIn {
        if let app = apps.app(forDigest: digest) { return .signedIn(.apiToken(app: app.appID, digest: digest), app: app.appID) }
        switch credentials.app(forDigest: digest) {
        case .app(let appID) where apps.app(withID: appID) != nil: return .signedIn(.apiToken(app: appID, digest: digest), app: appID)
        case .app, .unknown: return .refused
        case .unverifiable: return .unverifiable
        }
    }

    /// Whether `identity` may still see `app`, now.
    func check(_ identity: ConsoleIdentity, app: String) -> Check {
        switch identity {
        case .apiToken(let owner, let digest):
            guard owner.sameBytes(as: app) else { return .revoked }
            if apps.app(forDigest: digest)?.appID.sameBytes(as: app) == true { return .valid }
            switch credentials.app(forDigest: digest) {
            case .app(let appID) where appID.sameBytes(as: app) && apps.app(withID: app) != nil: return .valid
            case .app, .unknown: return .revoked
            case .unverifiable: return .unverifiable
            }
        case .user(let name, let fingerprint):
            // The secret it signed in with must still be the user's: a rotated or removed one
            // ends the session here.
            guard let user = users.first(where: { $0.name == name }),
                AppRegistry.constantTimeEqual(user.fingerprint, fingerprint)
            else { return .revoked }
            return allowedApps(user).contains { $0.appID.sameBytes(as: app) } ? .valid : .revoked
        }
    }

    /// The apps `identity` may switch between: its token's app, or a user's apps.
    func apps(for identity: ConsoleIdentity) -> [AppConfiguration] {
        switch identity {
        case .apiToken(let app, _): return apps.app(withID: app).map { [$0] } ?? []
        case .user(let name, _): return users.first { $0.name == name }.map(allowedApps) ?? []
        }
    }

    /// Whether `identity` may see figures of the whole relay (every app's together): an operator
    /// (a console user allowed every app), or anyone when the relay serves one app only.
    func seesRelay(_ identity: ConsoleIdentity) -> Bool {
        if apps.apps.count == 1 { return true }
        if case .user(let name, _) = identity, let user = users.first(where: { $0.name == name }) { return user.apps == nil }
        return false
    }

    private func allowedApps(_ user: User) -> [AppConfiguration] {
        guard let names = user.apps else { return apps.apps }
        return names.compactMap { apps.app(withID: $0) }
    }
}
