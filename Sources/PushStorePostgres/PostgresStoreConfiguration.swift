import Foundation
import PushStore

/// Where the fleet's PostgreSQL database is and how this relay uses it. Built once at start-up
/// and injected.
public struct PostgresStoreConfiguration: Sendable, CustomStringConvertible {
    /// Whether the connections use TLS.
    public enum TLSMode: String, Sendable, Hashable {
        /// Plain TCP.
        case disable
        /// TLS when the server offers it (without verifying the server), else plain.
        case prefer
        /// TLS with the server's certificate verified against the system's roots and its name.
        case require
    }

    public var host: String
    public var port: Int
    public var username: String
    /// Never logged: `location` and `description` leave it out.
    public var password: String?
    public var database: String
    /// Connections the store's pool opens at most (the LISTEN connection is one more).
    public var poolSize: Int
    /// This relay's name in the fleet: its claims carry it, and `resumeInFlight` takes back only
    /// its own. Two live relays must not share one.
    public var nodeID: String
    /// How long a claim holds without renewal (`PostgresStore.renewClaims`): a relay that dies
    /// mid-send has its deliveries taken over by the others this long after its last renewal.
    public var leaseDuration: Duration
    public var tls: TLSMode
    /// What both stores share (the per-user token limit; SQLite's own settings are unused here).
    public var store: PushStoreConfiguration

    public static let defaultPoolSize = 8
    public static let defaultLeaseDuration: Duration = .seconds(60)

    public init(
        host: String, port: Int = 5432, username: String, password: String? = nil, database: String,
        poolSize: Int = PostgresStoreConfiguration.defaultPoolSize, nodeID: String,
        leaseDuration: Duration = PostgresStoreConfiguration.defaultLeaseDuration, tls: TLSMode = .disable,
        store: PushStoreConfiguration = PushStoreConfiguration()
    ) {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
        self.database = database
        self.poolSize = poolSize
        self.nodeID = nodeID
        self.leaseDuration = leaseDuration
        self.tls = tls
        self.store = store
    }

    /// From `postgres://user[:password]@host[:port]/database` (or `postgresql://`). A `password`
    /// given here wins over one in the URL (it usually comes from a credential file).
    public init(
        url: String, password: String? = nil, nodeID: String, poolSize: Int = PostgresStoreConfiguration.defaultPoolSize,
        leaseDuration: Duration = PostgresStoreConfiguration.defaultLeaseDuration, tls: TLSMode = .disable,
        store: PushStoreConfiguration = PushStoreConfiguration()
    ) throws(InvalidURL) {
        guard let components = URLComponents(string: url), let scheme = components.scheme,
            ["postgres", "postgresql"].contains(scheme.lowercased())
        else { throw InvalidURL(reason: "must be postgres://user@host[:port]/database") }
        guard let host = components.host, !host.isEmpty else { throw InvalidURL(reason: "names no host") }
        guard let user = components.user, !user.isEmpty else { throw InvalidURL(reason: "names no user") }
        let database = String(components.path.drop { $0 == "/" })
        guard !database.isEmpty, !database.contains("/") else { throw InvalidURL(reason: "names no database (…/DATABASE)") }
        if let query = components.query, !query.isEmpty { throw InvalidURL(reason: "takes no options (?\(query))") }
        let port = components.port ?? 5432
        guard (1...65535).contains(port) else { throw InvalidURL(reason: "port must be 1...65535") }
        self.init(
            host: host, port: port, username: user.removingPercentEncoding ?? user,
            password: password ?? components.password.map { $0.removingPercentEncoding ?? $0 },
            database: database.removingPercentEncoding ?? database, poolSize: poolSize, nodeID: nodeID,
            leaseDuration: leaseDuration, tls: tls, store: store)
    }

    /// Why a URL was refused. Never repeats the URL, which may hold a password.
    public struct InvalidURL: Error, Sendable, CustomStringConvertible {
        public let reason: String
        public var description: String { "invalid PostgreSQL URL: \(reason)" }
    }

    /// `postgres://user@host:port/database`: for logs, without the password.
    public var location: String { "postgres://\(username)@\(host):\(port)/\(database)" }

    public var description: String { "\(location) (node \(nodeID))" }

    /// The lease in milliseconds, as stored (`lease_expires_at_ms`).
    var leaseMilliseconds: Int64 {
        let (seconds, attoseconds) = leaseDuration.components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
