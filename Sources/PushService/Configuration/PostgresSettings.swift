import ConfigSupport
import Foundation
import PushStorePostgres

/// `database.postgres`: the PostgreSQL database a fleet of relays shares.
///
/// ```yaml
/// database:
///   postgres:
///     url: postgres://pushrelay@db.internal:5432/pushrelay
///     password: {credential: pg-password}   # or {file: …}, {env: …}; never logged
///     pool_size: 8                          # connections per relay
///     node_id: relay-a                      # default: the host name
///     lease: 60s                            # how long a dead relay's claimed pushes wait for another
///     tls: verify-full                      # disable | prefer | require | verify-full
///     ca_file: /etc/push-relay/pg-ca.pem    # what verify-full and require trust; default: the system's
/// ```
///
/// `tls` defaults to `verify-full` (the certificate chain and the host name checked), or to
/// `disable` when the host is this machine (`localhost`, a loopback address, a socket).
/// `require` verifies as `verify-full` does; `prefer` encrypts without verifying the server.
public struct PostgresSettings: Sendable, Hashable {
    public var host: String
    public var port: Int
    public var username: String
    public var password: Secret?
    public var database: String
    /// Connections this relay opens at most.
    public var poolSize: Int
    /// This relay's name in the fleet: its claims carry it, and at start it takes back only its
    /// own unfinished claims. Two live relays must not share one.
    public var nodeID: String
    /// How long a claim holds without renewal: a relay that dies mid-send has its pushes taken
    /// over by the others this long after its last renewal.
    public var lease: Duration
    /// TLS to the server: `disable`, `prefer` (when the server offers it; unverified),
    /// `require` (verified, as `verify-full`) or `verify-full`.
    public var tls: PostgresStoreConfiguration.TLSMode
    /// A PEM bundle `verify-full` trusts instead of the system's trust store.
    public var caFile: String?

    // The defaults are the store's (`PostgresStoreConfiguration`); the bounds are the configuration's.
    public static let allowedPoolSize = 1...256
    public static let allowedLease: ClosedRange<Duration> = .seconds(5) ... .seconds(3600)

    public init(
        host: String, port: Int = 5432, username: String, password: Secret? = nil, database: String,
        poolSize: Int = PostgresStoreConfiguration.defaultPoolSize, nodeID: String = PostgresSettings.defaultNodeID,
        lease: Duration = PostgresStoreConfiguration.defaultLeaseDuration, tls: PostgresStoreConfiguration.TLSMode? = nil,
        caFile: String? = nil
    ) {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
        self.database = database
        self.poolSize = poolSize
        self.nodeID = nodeID
        self.lease = lease
        self.tls = tls ?? .defaultMode(host: host)
        self.caFile = caFile
    }

    /// From `postgres://user[:password]@host[:port]/database`, read as the store reads it (so
    /// the relay and the store agree on it); `key` names where it was given, for errors.
    init(url: String, key: String) throws(ConfigurationError) {
        let parsed: PostgresStoreConfiguration
        do {
            parsed = try PostgresStoreConfiguration(url: url, nodeID: PostgresSettings.defaultNodeID)
        } catch {
            throw .invalidValue(key: key, reason: error.reason)
        }
        self.init(
            host: parsed.host, port: parsed.port, username: parsed.username, password: parsed.password.map { Secret($0) },
            database: parsed.database)
    }

    /// The host name: unique per machine, and stable across restarts, so a restarted relay
    /// takes back its own claims at once.
    public static var defaultNodeID: String { ProcessInfo.processInfo.hostName }

    /// `postgres://user@host:port/database`, without the password.
    public var location: String { "postgres://\(username)@\(host):\(port)/\(database)" }

    /// What `PostgresStore.open` takes.
    public var storeConfiguration: PostgresStoreConfiguration {
        PostgresStoreConfiguration(
            host: host, port: port, username: username, password: password?.value, database: database, poolSize: poolSize,
            nodeID: nodeID, leaseDuration: lease, tls: tls, caFile: caFile)
    }

    /// `ca_file` for `verify-full` or `require`: a readable PEM bundle, checked now so a bad one
    /// stops the start (exit 78) rather than every connection. Another mode would ignore it, which
    /// is an error too.
    public static func checkedCAFile(_ path: String, tls: PostgresStoreConfiguration.TLSMode, key: String) throws(ConfigurationError)
        -> String
    {
        guard tls == .verifyFull || tls == .require else {
            throw .invalidValue(key: key, reason: "only tls: verify-full or require verifies the server (tls is \(tls.rawValue))")
        }
        do {
            try PostgresStoreConfiguration.validate(caFile: path)
        } catch {
            throw .invalidValue(key: key, reason: error.description)
        }
        return path
    }
}
