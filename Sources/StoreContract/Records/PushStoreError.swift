/// Failures of the store that callers may want to tell apart. SQLite's own errors (disk full,
/// corruption) pass through as GRDB's `DatabaseError`.
public enum PushStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The database at `path` could not be opened or migrated.
    case cannotOpen(path: String, reason: String)
    /// A stored value could not be read back (written by a newer version, or edited by hand).
    case corruptValue(table: String, column: String, value: String)
    /// A write would make a user hold more rows of `what` than `limit`; nothing was written.
    case limitReached(what: String, limit: Int)
    /// The device token is registered to another user, and the call may not move it; nothing
    /// was written.
    case heldByAnotherUser

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason):
            "cannot open the database at \(path): \(reason)"
        case .corruptValue(let table, let column, let value):
            "unreadable value in \(table).\(column): \(value)"
        case .limitReached(let what, let limit):
            "a user may hold at most \(limit) \(what)"
        case .heldByAnotherUser:
            "the device token is registered to another user"
        }
    }
}
