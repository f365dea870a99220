/// The SQLite database (`database:`).
public struct DatabaseConfiguration: Sendable, Hashable {
    /// Path of the database file; created with its directory's permissions if missing.
    public var path: String

    public init(path: String) { self.path = path }
}
