import Foundation
import GRDB
import StoreContract

/// The relay's state in one SQLite file: users, device tokens, push preferences, template
/// choices and app templates, every row scoped by app id.
///
/// A WAL-mode `DatabasePool`: reads run concurrently with each other and with the single writer,
/// so a slow write never blocks a token lookup. Every method is `async` and runs on GRDB's own
/// serial writer / reader pool, never on the caller's executor.
public final class SQLiteStore: RelayStore {
    /// The open database. Internal so sibling files of this module (tokens, preferences, the delivery queue, the log)
    /// share it; other modules go through the typed methods.
    let pool: DatabasePool
    /// Checkpoints off the commit path (see `WALCheckpointer`).
    private let checkpointer: WALCheckpointer
    /// The webhook's recipient reads, on connections that keep their snapshot between reads.
    let snapshotReaders: SnapshotReaders
    public let configuration: PushStoreConfiguration
    /// Where the database lives.
    public let path: String
    /// The file `path` named when the store opened it (nil if it could not be read then).
    private let opened: DatabaseFileIdentity?
    /// Unix milliseconds; stamps registrations and user creation. Injected so tests control time.
    let clock: @Sendable () -> Int64
    /// The webhook's view of users and templates; see `registryWrite`.
    package let recipientCache: RecipientCache
    /// This process is the database's only writer: nothing to hear, always current.
    public let credentialWatch = CredentialWatch(hearing: true)

    /// Opens (creating if needed) the database at `path` and brings its schema up to date.
    /// - Parameter clock: the current time in Unix milliseconds.
    public init(
        path: String,
        configuration: PushStoreConfiguration = PushStoreConfiguration(),
        clock: @escaping @Sendable () -> Int64 = WallClock.milliseconds
    ) throws {
        self.path = path
        self.configuration = configuration
        self.clock = clock
        recipientCache = RecipientCache(
            capacity: configuration.recipientCacheUsers, byteCapacity: configuration.recipientCacheBytes)
        var config = Configuration()
        config.foreignKeysEnabled = true
        config.busyMode = .timeout(
            TimeInterval(configuration.busyTimeout.components.seconds)
                + TimeInterval(configuration.busyTimeout.components.attoseconds) / 1e18)
        config.maximumReaderCount = configuration.maximumReaderCount
        config.label = "PushStore"
        // Deleted content is zeroed, not left in free space: erasing a user (`eraseUser`) and
        // pruning leave no readable copy in the file.
        config.prepareDatabase { db in try db.execute(sql: "PRAGMA secure_delete = ON") }
        do {
            pool = try DatabasePool(path: path, configuration: config)
            try PushStoreMigrations.migrator.migrate(pool)
            // GRDB sets NORMAL when it enables WAL; only the writer's setting matters for
            // durability, and the pool has exactly one writer connection.
            let pragma = configuration.durability.pragmaValue
            try pool.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA synchronous = \(pragma)")
                try db.execute(sql: "PRAGMA wal_autocheckpoint = \(WALCheckpointer.writerFallbackPages)")
            }
            snapshotReaders = SnapshotReaders(
                path: path, busyMode: config.busyMode, maximumCount: configuration.maximumReaderCount,
                holdsSnapshots: configuration.recipientCacheUsers > 0)
            checkpointer = try WALCheckpointer(
                path: path, synchronous: pragma, busyMode: config.busyMode, interval: .milliseconds(100),
                readers: snapshotReaders)
            opened = DatabaseFileIdentity(path: path)
        } catch let error as DatabaseError {
            throw PushStoreError.cannotOpen(path: path, reason: error.message ?? error.description)
        }
    }

    /// Names of the migrations applied to the database, oldest first.
    public func appliedMigrations() async throws -> [String] {
        try await pool.read { db in
            // In the order they were registered (sorting by name puts v10 before v2).
            let applied = try PushStoreMigrations.migrator.appliedIdentifiers(db)
            return PushStoreMigrations.migrator.migrations.filter(applied.contains)
        }
    }

    public var location: String { path }

    /// Checks that `path` is still the file the store opened, then takes the write lock on a
    /// connection of its own (`DatabaseProbe`, which never creates the file). The identity first:
    /// a copy put in the file's place takes the lock as well as the file the relay writes to.
    public func checkWritable() async -> String? {
        if let change = opened?.change(at: path) { return change }
        return await DatabaseProbe(path: path).check()
    }

    /// Closes every connection. The readers go first: the connection closed last copies the WAL
    /// into the database file and deletes it (with its `-shm`), which a read-only one cannot, so
    /// a closed store is the one file.
    public func close() async throws {
        await checkpointer.stop()
        snapshotReaders.close()
        pool.releaseMemory()
        try pool.close()
    }

    /// Whether anything was ever written for this user of this app.
    public func userExists(app: String, user: String) async throws -> Bool {
        try await pool.read { db in try Self.userExists(db, app: app, user: user) }
    }

    // MARK: Helpers shared by the extensions

    /// A write to users, device tokens, preferences or templates of `app`. Every such write must
    /// go through here: it invalidates the app's part of `recipientCache` once the transaction
    /// has ended (other apps' entries stay).
    func registryWrite<T: Sendable>(app: String, _ updates: @escaping @Sendable (Database) throws -> T) async throws -> T {
        defer { recipientCache.invalidate(app: app) }
        return try await pool.write(updates)
    }

    /// A write whose loss in a power failure costs a push sent twice, never an accepted event:
    /// the dispatcher's claims, outcome records and requeues, and pruning. Under
    /// `durability: full` it commits without an fsync of its own (`synchronous = NORMAL` for this
    /// one transaction). The WAL is one file and an fsync covers all of it, so the next event
    /// commit makes these frames durable too, and the background checkpoint syncs them within
    /// about 0.1 s if no event comes. Webhook commits queue behind every write on the one
    /// writer, and each of these cost them a disk flush.
    func queueWrite<T: Sendable>(_ updates: @escaping @Sendable (Database) throws -> T) async throws -> T {
        guard configuration.durability == .full else { return try await pool.write(updates) }
        return try await pool.writeWithoutTransaction { db in
            try db.cachedStatement(sql: "PRAGMA synchronous = NORMAL").execute()
            let result = Result {
                var value: T?
                try db.inTransaction {
                    value = try updates(db)
                    return .commit
                }
                return value!
            }
            // Back to FULL before anything else can use the writer, whether or not it committed.
            try db.cachedStatement(sql: "PRAGMA synchronous = FULL").execute()
            return try result.get()
        }
    }

    static func userExists(_ db: Database, app: String, user: String) throws -> Bool {
        try Bool.fetchOne(
            db,
            sql: "SELECT EXISTS (SELECT 1 FROM users WHERE app_id = ? AND user_id = ?)",
            arguments: [app, user]
        ) ?? false
    }

    /// Creates the user row on a user's first write.
    static func ensureUser(_ db: Database, app: String, user: String, now: Int64) throws {
        try db.execute(
            sql: "INSERT INTO users (app_id, user_id, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
            arguments: [app, user, now]
        )
    }
}

extension StoreDurability {
    /// `PRAGMA synchronous` for it.
    var pragmaValue: String {
        switch self {
        case .full: "FULL"
        case .normal: "NORMAL"
        }
    }
}
