import PushStore
import StoreContract

/// Where the relay keeps its state (`database:`): one SQLite file, the embedded default for one
/// relay, or a PostgreSQL database that a fleet of relays shares; and how many users the
/// webhook's recipient cache holds in front of either.
///
/// ```yaml
/// database: {path: /var/lib/push-relay/relay.sqlite}
/// database:
///   postgres: {url: "postgres://pushrelay@db.internal/pushrelay", password: {credential: pg-password}}
///   recipient_cache: {max_users: 1000000, max_bytes: 1073741824}
/// ```
public struct DatabaseConfiguration: Sendable, Hashable {
    public enum Backend: Sendable, Hashable {
        /// Path of the database file; created with its directory's permissions if missing.
        case sqlite(path: String)
        case postgres(PostgresSettings)
    }

    public var backend: Backend
    /// `recipient_cache.max_users` (0 turns the cache off).
    public var recipientCacheUsers = PushStoreConfiguration.defaultRecipientCacheUsers
    /// `recipient_cache.max_bytes`.
    public var recipientCacheBytes = PushStoreConfiguration.defaultRecipientCacheBytes

    /// What either store is opened with.
    public var storeConfiguration: PushStoreConfiguration {
        PushStoreConfiguration(recipientCacheUsers: recipientCacheUsers, recipientCacheBytes: recipientCacheBytes)
    }

    public init(path: String) { backend = .sqlite(path: path) }

    public init(postgres: PostgresSettings) { backend = .postgres(postgres) }

    /// The SQLite file, when that is the backend.
    public var path: String? {
        if case .sqlite(let path) = backend { path } else { nil }
    }

    /// Who holds the work this relay takes from the database (a notification's fan-out): the
    /// node's id in a fleet, so a relay restarted under its id goes on at once; on SQLite, which
    /// one relay serves, always the same.
    public var workOwner: String {
        switch backend {
        case .sqlite: "local"
        case .postgres(let settings): settings.nodeID
        }
    }

    /// For logs: the file, or the server and database (never the password).
    public var location: String {
        switch backend {
        case .sqlite(let path): path
        case .postgres(let settings): settings.location
        }
    }
}
