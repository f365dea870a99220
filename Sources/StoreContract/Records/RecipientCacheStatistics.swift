/// How the webhook's recipient cache is doing: members looked up (found, or read from the
/// database) since the start, and what it holds now. Tells an operator whether a larger
/// `database.recipient_cache` would help.
public struct RecipientCacheStatistics: Sendable, Equatable {
    /// Members served from the cache.
    public var hits: UInt64
    /// Members read from the database (not cached, or the cache emptied by a registry write).
    public var misses: UInt64
    /// Users held now.
    public var users: Int
    /// About how many bytes they take (the bound `max_bytes` applies to).
    public var bytes: Int

    public init(hits: UInt64 = 0, misses: UInt64 = 0, users: Int = 0, bytes: Int = 0) {
        self.hits = hits
        self.misses = misses
        self.users = users
        self.bytes = bytes
    }
}
