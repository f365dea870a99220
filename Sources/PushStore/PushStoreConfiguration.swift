/// How the store opens its database. Built once at start-up and injected.
public struct PushStoreConfiguration: Sendable, Hashable {
    /// How long a writer waits for SQLite's write lock before failing with `SQLITE_BUSY`.
    /// Only another process (an operator's `sqlite3` shell, a backup) can hold it: inside one
    /// process GRDB already serialises writes.
    public var busyTimeout: Duration
    /// Concurrent readers. WAL lets them read while a write is in progress.
    public var maximumReaderCount: Int
    /// Sendbird's limit: a user keeps at most this many tokens of one type; registering one more
    /// evicts the oldest.
    public var maximumTokensPerUser: Int
    /// `PRAGMA synchronous` of the writer connection.
    public var durability: StoreDurability

    public init(
        busyTimeout: Duration = .seconds(5), maximumReaderCount: Int = 5, maximumTokensPerUser: Int = 20,
        durability: StoreDurability = .full
    ) {
        self.busyTimeout = busyTimeout
        self.maximumReaderCount = maximumReaderCount
        self.maximumTokensPerUser = maximumTokensPerUser
        self.durability = durability
    }
}
