/// Everything the relay keeps, one protocol per concept (GRDB's way), and the store as a whole.
/// Two implementations: `SQLiteStore` (one file, the embedded default) and `PostgresStore` (the
/// PushStorePostgres module; one database shared by a fleet of relays). The service sees only
/// this protocol, and the store tests run against both.
public protocol RelayStore: DeviceTokenStore, PreferenceStore, TemplateStore, CredentialStore, RecipientDirectory,
    EventStore, DeliveryQueue, DeliveryLogStore, UserStore, BadgeStore, ConsoleSessionStore, LiveActivityStore,
    BroadcastChannelStore, NotificationStore
{
    /// Where the data lives, for logs: a file path, or a database URL without its password.
    var location: String { get }

    /// Names of the migrations applied, oldest first.
    func appliedMigrations() async throws -> [String]

    /// nil when the store accepts writes now, else what went wrong (behind `GET /ready`).
    /// Writes nothing.
    func checkWritable() async -> String?

    /// Releases connections. The store is unusable afterwards.
    func close() async throws

    /// What went wrong in one of this store's errors, for logs: what the database said, without
    /// the data of the statement (PostgresNIO's `PSQLError` prints only a generic sentence).
    func describe(_ error: any Error) -> String
}

extension RelayStore {
    public func describe(_ error: any Error) -> String { String(describing: error) }
}
