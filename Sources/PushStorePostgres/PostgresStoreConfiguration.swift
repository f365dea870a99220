import Foundation
import StoreContract

/// Where the fleet's PostgreSQL database is and how this relay uses it. Built once at start-up
/// and injected.
public struct PostgresStoreConfiguration: Sendable, CustomStringConvertible {
    /// Whether the connections use TLS, and whether the server is verified (libpq's `sslmode`
    /// names; `require` verifies, as it always did here).
    public enum TLSMode: String, Sendable, Hashable, CaseIterable {
        /// Plain TCP.
        case disable
        /// TLS when the server offers it, else plain; the server is not verified.
        case prefer
        /// TLS always, verified as `verify-full` is. (libpq's `require` does not verify; this
        /// relay's always did, and an upgrade must not quietly stop.)
        case require
        /// TLS always; the server's certificate chain is verified (against `caFile`, else the
        /// system's trust store) and must name the host connected to.
        case verifyFull = "verify-full"

        /// The modes as written in a configuration, for messages.
        public static let names = "disable, prefer, require or verify-full"

        /// `verify-full`, except `disable` for a server on this machine (a loopback address,
        /// `localhost` or a Unix socket), where nothing travels over a network.
        public static func defaultMode(host: String) -> TLSMode {
            PostgresHost.isLocal(host) ? .disable : .verifyFull
        }
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
    /// A PEM bundle of the certificates `verify-full` trusts, instead of the system's trust store.
    public var caFile: String?
    /// What both stores share (the per-user token limit; SQLite's own settings are unused here).
    public var store: PushStoreConfiguration

    public static let defaultPoolSize = 8
    public static let defaultLeaseDuration: Duration = .seconds(60)

    public init(
        host: String, port: Int = 5432, username: String, password: String? = nil, database: String,
        poolSize: Int = PostgresStoreConfiguration.defaultPoolSize, nodeID: String,
        leaseDuration: Duration = PostgresStoreConfiguration.defaultLeaseDuration, tls: TLSMode? = nil, caFile: String? = nil,
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
        self.tls = tls ?? .defaultMode(host: host)
        self.caFile = caFile
        self.store = store
    }

    /// From `postgres://user[:password]@host[:port]/database` (or `postgresql://`). A `password`
    /// given here wins over one in the URL (it usually comes from a credential file). `tls`
    /// defaults to `TLSMode.defaultMode(host:)`.
    public init(
        url: String, password: String? = nil, nodeID: String, poolSize: Int = PostgresStoreConfiguration.defaultPoolSize,
        leaseDuration: Duration = PostgresStoreConfiguration.defaultLeaseDuration, tls: TLSMode? = nil, caFile: String? = nil,
        store: PushStoreConfiguration = PushStoreConfiguration()
    ) throws(InvalidURL) {
        guard let components = URLComponents(string: url), let scheme = components.scheme,
            ["postgres", "postgresql"].contains(scheme.lowercased())
        else { throw InvalidURL(reason: "must be postgres://user@host[:port]/database") }
        guard let host = components.host, !host.isEmpty else { throw InvalidURL(reason: "names no host") }
        guard let user = components.user, !user.isEmpty else { throw InvalidURL(reason: "names no user") }
        let database = String(components.path.drop { $0 == "/" })
        guard !database.isEmpty, !database.contains("/") else { throw InvalidURL(reason: "names no database (…/DATABASE)") }
        // Options after `?` (libpq's `sslmode`, `password`, …) are refused unread and unquoted: they may hold a password.
        if components.query != nil || components.fragment != nil {
            throw InvalidURL(reason: "takes no options after ? or # (give tls, ca_file and password as keys of their own)")
        }
        let port = components.port ?? 5432
        guard (1...65535).contains(port) else { throw InvalidURL(reason: "port must be 1...65535") }
        self.init(
            host: host, port: port, username: user.removingPercentEncoding ?? user,
            password: password ?? components.password.map { $0.removingPercentEncoding ?? $0 },
            database: database.removingPercentEncoding ?? database, poolSize: poolSize, nodeID: nodeID,
            leaseDuration: leaseDuration, tls: tls, caFile: caFile, store: store)
    }

    /// Why a URL was refused. Never repeats the URL or any part of it that may hold a password
    /// (the user info, the query).
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
