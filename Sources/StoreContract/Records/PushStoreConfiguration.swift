/// How the store opens its database. Built once at start-up and injected.
public struct PushStoreConfiguration: Sendable, Hashable {
    /// How long a writer waits for SQLite's write lock before failing with `SQLITE_BUSY`.
    /// Only another process (an operator's `sqlite3` shell, a backup) can hold it: inside one
    /// process GRDB already serialises writes.
    public var busyTimeout: Duration
    /// Concurrent readers. WAL lets them read while a write is in progress. The webhook's recipient
    /// reads have as many more of their own (`SnapshotReaders`), opened as concurrent reads need them.
    public var maximumReaderCount: Int
    /// Sendbird's limit: a user keeps at most this many tokens of one type; registering one more
    /// evicts the oldest.
    public var maximumTokensPerUser: Int
    /// `PRAGMA synchronous` of the writer connection.
    public var durability: StoreDurability
    /// Bounds of the webhook's recipient cache (`RecipientCache`): users held at most, and about
    /// how many bytes they may take. Past either, a quarter is dropped; past a quarter of either,
    /// a user is kept only on their second read (`CacheDoorkeeper`). 0 users turns it off (each
    /// app's few templates are kept regardless).
    /// Every recipient the cache misses is read from the database; at a million users with the
    /// defaults nine in ten miss (docs/benchmarks.md, cost curve 1).
    public var recipientCacheUsers: Int
    public var recipientCacheBytes: Int

    public static let defaultRecipientCacheUsers = 100_000
    public static let defaultRecipientCacheBytes = 64 << 20

    public init(
        busyTimeout: Duration = .seconds(5), maximumReaderCount: Int = 5, maximumTokensPerUser: Int = 20,
        durability: StoreDurability = .full, recipientCacheUsers: Int = PushStoreConfiguration.defaultRecipientCacheUsers,
        recipientCacheBytes: Int = PushStoreConfiguration.defaultRecipientCacheBytes
    ) {
        self.busyTimeout = busyTimeout
        self.maximumReaderCount = maximumReaderCount
        self.maximumTokensPerUser = maximumTokensPerUser
        self.durability = durability
        self.recipientCacheUsers = recipientCacheUsers
        self.recipientCacheBytes = recipientCacheBytes
    }
}
