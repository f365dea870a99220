import Foundation
import GRDB
import Synchronization
import TestSupport
import Testing
@testable import PushStore
@testable import StoreContract
@testable import PushStorePostgres

/// A clock the test moves by hand (Unix milliseconds).
final class ManualClock: Sendable {
    private let now: Mutex<Int64>

    init(_ start: Int64 = 1_700_000_000_000) { now = Mutex(start) }

    var milliseconds: Int64 { now.withLock { $0 } }

    func advance(by ms: Int64) { now.withLock { $0 += ms } }

    var function: @Sendable () -> Int64 { { self.milliseconds } }
}

/// A real SQLite file in a fresh temporary directory, removed when the value is deinitialised.
/// The directories are made in one of this process's own, removed when it exits: many tests leave
/// their store to deinit rather than close it, and a store closing after its directory was
/// removed could leave the directory behind.
final class TemporaryDatabase: Sendable {
    let directory: URL
    var path: String { directory.appendingPathComponent("relay.sqlite").path }

    private static let processDirectory: URL = {
        atexit {
            try? FileManager.default.removeItem(at: TemporaryDatabase.processDirectoryURL)
        }
        return processDirectoryURL
    }()

    private static var processDirectoryURL: URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("PushStoreTests-\(getpid())", isDirectory: true)
    }

    init() throws {
        directory = Self.processDirectory.appendingPathComponent(UUID().uuidString, isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    func open(clock: ManualClock = ManualClock(), configuration: PushStoreConfiguration = PushStoreConfiguration()) throws -> SQLiteStore {
        try SQLiteStore(path: path, configuration: configuration, clock: clock.function)
    }
}

/// The two implementations of `RelayStore`; the store tests that check the interface run against both.
enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres

    var testDescription: String { rawValue }

    static let sqliteMigrations = [
        "v1_users_tokens_preferences_templates", "v2_events_deliveries", "v3_delivery_payloads", "v4_credentials", "v5_due_by_app",
        "v6_users_badges_acks",
        "v7_fcm_message_names", "v8_recipient_read_model", "v9_one_due_index", "v10_shared_payloads",
        "v11_prune_by_id", "v12_no_sender_index", "v13_packed_payloads", "v14_credential_issuers", "v15_reader_parity",
        "v16_test_pushes", "v17_console_sessions", "v18_per_app_log", "v19_delivery_provider", "v20_preferences_by_name",
        "v21_token_configurations", "v22_live_activities", "v23_broadcast_channels", "v24_notifications",
    ]
}

/// A fresh, empty database of one kind: a temporary SQLite file, or a new database in the test
/// process's PostgreSQL cluster. Every store opened on it sees the same data (a reopened SQLite
/// file; another relay of the fleet).
final class TestDatabase: Sendable {
    let kind: StoreKind
    private let sqlite: TemporaryDatabase?
    private let postgres: (cluster: PostgresCluster, database: String)?

    private init(kind: StoreKind, sqlite: TemporaryDatabase?, postgres: (cluster: PostgresCluster, database: String)?) {
        self.kind = kind
        self.sqlite = sqlite
        self.postgres = postgres
    }

    static func make(_ kind: StoreKind) async throws -> TestDatabase {
        switch kind {
        case .sqlite:
            return TestDatabase(kind: kind, sqlite: try TemporaryDatabase(), postgres: nil)
        case .postgres:
            let cluster = try await PostgresCluster.shared()
            return TestDatabase(kind: kind, sqlite: nil, postgres: (cluster, try await cluster.createDatabase()))
        }
    }

    /// The cluster and database name, for a PostgreSQL database.
    var postgresDatabase: (cluster: PostgresCluster, database: String)? { postgres }

    /// The migrations a new database gets.
    var migrations: [String] {
        switch kind {
        case .sqlite: StoreKind.sqliteMigrations
        case .postgres:
            [
                "v1_schema", "v2_users_badges_acks", "v3_fcm_message_names", "v4_credential_issuers", "v5_reader_parity", "v6_test_pushes",
                "v7_console_sessions", "v8_per_app_log", "v9_delivery_provider", "v10_token_configurations",
                "v11_live_activities", "v12_broadcast_channels", "v13_notifications",
            ]
        }
    }

    /// A store on this database. `nodeID` and `lease` only matter to PostgreSQL.
    func open(
        clock: ManualClock = ManualClock(), configuration: PushStoreConfiguration = PushStoreConfiguration(), nodeID: String = "node-a"
    ) async throws -> any RelayStore {
        switch kind {
        case .sqlite: try sqlite!.open(clock: clock, configuration: configuration)
        case .postgres: try await openPostgres(clock: clock, configuration: configuration, nodeID: nodeID)
        }
    }

    func openPostgres(
        clock: ManualClock = ManualClock(), configuration: PushStoreConfiguration = PushStoreConfiguration(), nodeID: String = "node-a",
        lease: Duration = .seconds(60)
    ) async throws -> PostgresStore {
        let (cluster, database) = try #require(postgres, "a PostgreSQL store on a \(kind) database")
        return try await PostgresStore.open(
            configuration: PostgresStoreConfiguration(
                url: cluster.url(database: database), nodeID: nodeID, poolSize: 4, leaseDuration: lease, store: configuration),
            clock: clock.function)
    }

    /// The one integer `sql` answers (a COUNT), read beside the store, not through it.
    func count(_ sql: String) async throws -> Int {
        switch kind {
        case .sqlite:
            let queue = try DatabaseQueue(path: sqlite!.path)
            defer { try? queue.close() }
            return try await queue.read { db in try Int.fetchOne(db, sql: sql) ?? -1 }
        case .postgres:
            let (cluster, database) = postgres!
            let rows = try await cluster.psql(database: database, sql)
            return try #require(rows.first?.first.flatMap { Int($0) }, "\(sql) answered \(rows)")
        }
    }

    /// Runs `sql` beside the store (a change no store method makes, such as a row of an older version).
    func execute(_ sql: String) async throws {
        switch kind {
        case .sqlite:
            let queue = try DatabaseQueue(path: sqlite!.path)
            defer { try? queue.close() }
            try await queue.write { db in try db.execute(sql: sql) }
        case .postgres:
            let (cluster, database) = postgres!
            _ = try await cluster.psql(database: database, sql)
        }
    }

    /// A table's column names, in order.
    func columns(of table: String) async throws -> [String] {
        switch kind {
        case .sqlite:
            let queue = try DatabaseQueue(path: sqlite!.path)
            defer { try? queue.close() }
            return try await queue.read { db in try db.columns(in: table).map(\.name) }
        case .postgres:
            let (cluster, database) = postgres!
            return try await cluster.psql(
                database: database,
                "SELECT column_name FROM information_schema.columns WHERE table_name = '\(table)' ORDER BY ordinal_position"
            ).map { $0[0] }
        }
    }
}

/// A valid-looking 64-hex-digit APNs token derived from a number.
func hexToken(_ n: Int) -> String {
    String(repeating: String(format: "%08x", n), count: 8)
}

extension CredentialStore {
    /// A session issued by no API token in particular (the store does not check issuers).
    @discardableResult
    func addSessionToken(digest: Data, app: String, user: String, expiresAtMs: Int64) async throws -> StoredSessionToken {
        try await addSessionToken(digest: digest, app: app, user: user, issuer: "test-issuer", expiresAtMs: expiresAtMs)
    }
}
