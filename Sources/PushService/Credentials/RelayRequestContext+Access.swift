import Hummingbird
import PushCore

/// What each caller may do, decided here and nowhere else. Every `/v3` route starts with one of
/// these calls:
/// - `requireApp()`: a server credential (master or secondary API token). The default: a route
///   that names no other rule is closed to session tokens.
/// - `requireUser()`: the `{user_id}` route of one user; a server credential, or that user's own
///   session token (their device tokens, push preferences and template choice).
/// - `requireMasterToken()`: managing API tokens.
/// - `requireDevice()`: calls a device makes about itself without naming its user in the path
///   (delivery and click reports); a server credential, or a session token, whose user it names.
extension RelayRequestContext {
    /// The app, and for a session token its user (nil for a server credential).
    func requireDevice() throws(APIError) -> (app: AppConfiguration, user: String?) {
        let caller = try requireCaller()
        if case .sessionToken(let owner) = caller.credential { return (caller.app, owner) }
        return (caller.app, nil)
    }

    /// The app, for a server credential; a session token gets 403.
    func requireApp() throws(APIError) -> AppConfiguration {
        let caller = try requireCaller()
        if case .sessionToken = caller.credential {
            throw .notAccessible("a \"Session-Token\" reaches only its own user's push settings; this needs \"Api-Token\"")
        }
        return caller.app
    }

    /// The app and the path's `{user_id}` (decoded), for a server credential or a session token
    /// of this very user — the same bytes: a canonically equal spelling is another user, as it is
    /// in the store; another user's session token gets 403.
    func requireUser() throws(APIError) -> (app: AppConfiguration, user: String) {
        let caller = try requireCaller()
        let user = try RequestParameter.decoded("user_id", from: self)
        if case .sessionToken(let owner) = caller.credential, !owner.sameBytes(as: user) {
            throw .notAccessible("the \"Session-Token\" belongs to another user")
        }
        return (caller.app, user)
    }

    /// The app, for its master API token only: secondary tokens must not mint or revoke tokens,
    /// so a leaked one can be revoked and stays revoked.
    func requireMasterToken() throws(APIError) -> AppConfiguration {
        let caller = try requireCaller()
        guard caller.credential == .masterAPIToken else {
            throw .notAccessible("API tokens are managed with the master API token only")
        }
        return caller.app
    }

    /// Whether the caller is a device (a session token) rather than an app's server.
    var isSessionCaller: Bool {
        if case .sessionToken = caller?.credential { return true }
        return false
    }

    private func requireCaller() throws(APIError) -> Caller {
        guard let caller else { throw .invalidAPIToken }
        return caller
    }
}
