import Synchronization

/// The console users of the configuration as they are now: read at start, replaced on SIGHUP, so
/// a changed or removed secret ends its sessions at their next request without a restart. Each
/// user's secret is kept as its SHA-256 (checked at sign-in) and as a keyed fingerprint, what
/// the user's sessions keep (`ConsoleIdentity.user`).
final class ConsoleUsers: Sendable {
    struct User: Sendable {
        let name: String
        let digest: [UInt8]
        /// HMAC under a key the fleet shares, of the name and the secret: a reader of the
        /// database learns nothing to guess against, and every relay computes the same.
        let fingerprint: [UInt8]
        /// The apps they may open; nil: every configured app.
        let apps: [String]?
    }

    private let keys: SessionTokenFormat
    private let users: Mutex<[User]>

    /// - Parameter keys: the fleet's session-token format; the fingerprints use a key derived from it.
    init(_ configured: [ConsoleConfiguration.User], keys: SessionTokenFormat) {
        self.keys = keys.derived(for: "console_user_secret")
        users = Mutex([])
        replace(with: configured)
    }

    var current: [User] { users.withLock { $0 } }

    func replace(with configured: [ConsoleConfiguration.User]) {
        let fresh = configured.map { user in
            User(
                name: user.name, digest: AppRegistry.digest(user.secret.value),
                fingerprint: keys.fingerprint(user.name + "\u{0}" + user.secret.value), apps: user.apps)
        }
        users.withLock { $0 = fresh }
    }
}
