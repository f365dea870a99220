import LogRedaction
import Logging
import PostgresNIO
import PushCore
import StoreContract

/// The relay's state in a PostgreSQL database that a fleet of relays shares: the same tables,
/// results, ordering and errors as `SQLiteStore` (whose doc comments are the specification), plus
/// what sharing needs: claims leased to a node (`nodeID`), the webhook dedupe across nodes (the
/// events primary key), and every node's recipient cache emptied by any node's registry write
/// (`NOTIFY pushrelay_registry`, `RegistryListener`).
///
/// Statements bind whole batches as arrays (`PostgresArray`, `unnest`) and read rows by position:
/// the webhook's commit and the dispatcher's outcome record are one statement each.
public final class PostgresStore: RelayStore {
    /// The pool every query goes through (`configuration.poolSize` connections at most).
    let client: PostgresClient
    public let configuration: PostgresStoreConfiguration
    let logger: Logger
    /// Unix milliseconds; stamps registrations and leases. Injected so tests control time.
    let clock: @Sendable () -> Int64
    /// The webhook's view of users and templates; used only while `registry` listens.
    let recipientCache: RecipientCache
    let registry: RegistryListener
    /// Other relays' credential changes, heard through `registry` (not heard until it listens).
    public let credentialWatch = CredentialWatch(hearing: false)
    /// Runs `client.run()`, which the pool needs for as long as the store is used. Unstructured
    /// on purpose: the store outlives the call that opened it, so no caller's scope can own the
    /// task; the store does, and cancels it in `close()` (or when it is released).
    private let runTask: Task<Void, Never>

    private init(
        client: PostgresClient, runTask: Task<Void, Never>, configuration: PostgresStoreConfiguration, logger: Logger,
        clock: @escaping @Sendable () -> Int64
    ) {
        self.client = client
        self.runTask = runTask
        self.configuration = configuration
        self.logger = logger
        self.clock = clock
        recipientCache = RecipientCache(
            capacity: configuration.store.recipientCacheUsers, byteCapacity: configuration.store.recipientCacheBytes)
        registry = RegistryListener(cache: recipientCache, credentials: credentialWatch, logger: logger)
    }

    deinit {
        registry.stop()
        runTask.cancel()
    }

    /// Connects, brings the schema up to date (`PostgresMigrations`) and starts listening for
    /// other relays' registry writes.
    /// - Parameter clock: the current time in Unix milliseconds.
    /// - Throws: `PushStoreError.cannotOpen` naming `configuration.location` (never the password).
    public static func open(
        configuration: PostgresStoreConfiguration, logger: Logger = Logger(label: "PushStorePostgres"),
        clock: @escaping @Sendable () -> Int64 = WallClock.milliseconds
    ) async throws -> PostgresStore {
        let clientConfiguration: PostgresClient.Configuration
        do {
            clientConfiguration = try configuration.clientConfiguration()
        } catch {
            throw PushStoreError.cannotOpen(path: configuration.location, reason: describe(error))
        }
        // The pool's background work, started first: it has begun by the time the store is used.
        let client = PostgresClient(configuration: clientConfiguration, backgroundLogger: logger)
        let (started, signalStarted) = AsyncStream<Void>.makeStream()
        let runTask = Task {
            signalStarted.finish()
            await client.run()
        }
        // Migrations run on a connection of their own, which then becomes the LISTEN connection:
        // a refused connection or a bad password fails here with the server's reason, where the
        // pool would retry quietly until its circuit breaker trips.
        let connection: PostgresConnection
        do {
            connection = try await PostgresConnection.connect(
                configuration: try configuration.connectionConfiguration(), id: 0, logger: logger)
        } catch {
            runTask.cancel()
            throw PushStoreError.cannotOpen(path: configuration.location, reason: describe(error))
        }
        do {
            try await PostgresMigrations.migrate(connection, clock: clock, logger: logger)
        } catch {
            runTask.cancel()
            try? await connection.close()
            throw PushStoreError.cannotOpen(path: configuration.location, reason: describe(error))
        }
        for await _ in started {}
        let store = PostgresStore(client: client, runTask: runTask, configuration: configuration, logger: logger, clock: clock)
        store.registry.start(first: connection) {
            try await PostgresConnection.connect(configuration: try configuration.connectionConfiguration(), id: 0, logger: logger)
        }
        return store
    }

    public var location: String { configuration.location }

    var nodeID: String { configuration.nodeID }

    /// Names of the migrations applied to the database, oldest first.
    public func appliedMigrations() async throws -> [String] {
        try await withConnection { connection in
            try await PostgresMigrations.applied(connection, logger: logger)
        }
    }

    /// nil when a pooled connection answers within 2 s and the server takes writes (not a standby
    /// in recovery, transactions not read-only). Writes nothing.
    public func checkWritable() async -> String? {
        let location = location
        let logger = logger
        do {
            let (inRecovery, readOnly) = try await withDeadline(.seconds(2)) {
                try await self.withConnection { connection in
                    try await connection.rows(
                        "SELECT pg_is_in_recovery(), current_setting('transaction_read_only')", logger: logger
                    ) { try $0.decode((Bool, String).self) }.first ?? (false, "off")
                }
            }
            if inRecovery { return "\(location) is a standby in recovery (read-only)" }
            if readOnly == "on" { return "\(location) takes no writes (transaction_read_only is on)" }
            return nil
        } catch is DeadlineExceeded {
            return "no answer from \(location) within 2 s"
        } catch {
            return Self.describe(error)
        }
    }

    /// Stops listening and closes every connection. The store is unusable afterwards.
    public func close() async throws {
        await registry.stopAndWait()
        runTask.cancel()
        await runTask.value
    }

    /// Whether anything was ever written for this user of this app.
    public func userExists(app: String, user: String) async throws -> Bool {
        try await withConnection { connection in
            try await Self.userExists(connection, app: app, user: user, logger: logger)
        }
    }

    // MARK: Helpers shared by the extensions

    static func userExists(_ connection: PostgresConnection, app: String, user: String, logger: Logger) async throws -> Bool {
        try await connection.value(
            "SELECT EXISTS (SELECT 1 FROM users WHERE app_id = \(app) AND user_id = \(user))", as: Bool.self, logger: logger)
            ?? false
    }

    /// Takes the user's lock (`AdvisoryLock.user`; then the token's, when given) and creates the
    /// user row on their first write, in one statement. The insert's `ON CONFLICT` checks the
    /// index, not the statement's snapshot, so it sees a user the previous lock holder created;
    /// later statements take new snapshots, which see all it wrote.
    static func lockAndEnsureUser(
        _ connection: PostgresConnection, app: String, user: String, token: String? = nil, now: Int64, logger: Logger
    ) async throws {
        let userKey = AdvisoryLock.user(app: app, user: user)
        let locks: PostgresQuery =
            if let token {
                "SELECT pg_advisory_xact_lock(\(userKey)), pg_advisory_xact_lock(\(AdvisoryLock.token(app: app, token: token)))"
            } else {
                "SELECT pg_advisory_xact_lock(\(userKey))"
            }
        try await connection.run(locks, logger: logger)
        try await connection.run(
            "INSERT INTO users (app_id, user_id, created_at) VALUES (\(app), \(user), \(now)) ON CONFLICT DO NOTHING", logger: logger)
    }

    /// What went wrong: the server's own message and SQLSTATE when there is one, else the
    /// client's error code (`PSQLError`'s description hides both, lest the statement's data leak
    /// into logs). The detail, which quotes rows, stays out; the primary message seldom quotes a
    /// value, and `Redaction.scrub` takes out any that looks like a token or secret.
    public func describe(_ error: any Error) -> String { Self.describe(error) }

    static func describe(_ error: any Error) -> String {
        guard let error = error as? PSQLError else { return tlsProblem(error) ?? String(describing: error) }
        if let message = error.serverInfo?[.message].map(Redaction.scrub) {
            return error.serverInfo?[.sqlState].map { "\(message) (SQLSTATE \($0))" } ?? message
        }
        if error.code == .sslUnsupported { return "the server does not offer TLS, which the tls setting requires" }
        if let underlying = error.underlying { return tlsProblem(underlying) ?? "\(error.code): \(underlying)" }
        return "\(error.code)"
    }

    /// A refused server certificate, in the terms of the settings that decide it.
    static func tlsProblem(_ error: any Error) -> String? {
        if let error = error as? NIOSSLExtraError, error == .failedToValidateHostname {
            return "TLS: the server's certificate does not name the host name or address connected to (\(error))"
        }
        if let error = error as? NIOSSLError, case .handshakeFailed(let reason) = error {
            return "TLS handshake failed (\(reason)): with tls: verify-full the server's certificate must chain to ca_file, "
                + "or without one to the system's trust store"
        }
        return nil
    }
}

extension PostgresStoreConfiguration {
    /// nil for plain TCP. `prefer` does not verify the server: it only guards against passive
    /// eavesdropping. `require` and `verify-full` check the chain and the host name (`require`
    /// always has here, unlike libpq's: relaxing it in an upgrade would have been silent).
    func tlsConfiguration() throws -> TLSConfiguration? {
        var configuration = TLSConfiguration.makeClientConfiguration()
        switch tls {
        case .disable: return nil
        case .prefer:
            configuration.certificateVerification = .none
        case .require, .verifyFull:
            configuration.certificateVerification = .fullVerification
            if let caFile { configuration.trustRoots = .certificates(try Self.trustedCertificates(caFile: caFile)) }
        }
        return configuration
    }

    /// Whether `caFile` is a PEM bundle `verify-full` can use, for a configuration check before
    /// any connection. - Throws: `CAFileError` when it cannot be read or holds no certificate.
    public static func validate(caFile: String) throws(CAFileError) {
        _ = try trustedCertificates(caFile: caFile)
    }

    /// The certificates of the PEM bundle at `caFile`.
    static func trustedCertificates(caFile: String) throws(CAFileError) -> [NIOSSLCertificate] {
        let certificates: [NIOSSLCertificate]
        do {
            certificates = try NIOSSLCertificate.fromPEMFile(caFile)
        } catch {
            throw CAFileError(path: caFile, reason: "cannot be read as PEM certificates (\(error))")
        }
        guard !certificates.isEmpty else { throw CAFileError(path: caFile, reason: "holds no PEM certificate") }
        return certificates
    }

    /// Why `ca_file` is unusable.
    public struct CAFileError: Error, Sendable, CustomStringConvertible {
        public let path: String
        public let reason: String
        public var description: String { "CA file \(path) \(reason)" }
    }

    /// What `pg_stat_activity` shows for this relay's connections: an operator sees which relay
    /// holds which connection, and which one is its LISTEN connection.
    var applicationName: String { "push-relay \(nodeID)" }
    var listenerApplicationName: String { "push-relay \(nodeID) listen" }

    /// For the store's own connection (migrations, then LISTEN); the pool is configured by `clientConfiguration`.
    func connectionConfiguration() throws -> PostgresConnection.Configuration {
        let mode: PostgresConnection.Configuration.TLS =
            switch (tls, try tlsConfiguration()) {
            case (.prefer, let tls?): .prefer(try NIOSSLContext(configuration: tls))
            case (.require, let tls?), (.verifyFull, let tls?): .require(try NIOSSLContext(configuration: tls))
            default: .disable
            }
        var connection = PostgresConnection.Configuration(
            host: host, port: port, username: username, password: password, database: database, tls: mode)
        connection.options.additionalStartupParameters = [("application_name", listenerApplicationName)]
        return connection
    }

    func clientConfiguration() throws -> PostgresClient.Configuration {
        let mode: PostgresClient.Configuration.TLS =
            switch (tls, try tlsConfiguration()) {
            case (.prefer, let tls?): .prefer(tls)
            case (.require, let tls?), (.verifyFull, let tls?): .require(tls)
            default: .disable
            }
        var client = PostgresClient.Configuration(
            host: host, port: port, username: username, password: password, database: database, tls: mode)
        client.options.maximumConnections = max(1, poolSize)
        client.options.additionalStartupParameters = [("application_name", applicationName)]
        return client
    }
}
