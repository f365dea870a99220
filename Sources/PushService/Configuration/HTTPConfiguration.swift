/// Limits of the HTTP API (`http:`, optional).
public struct HTTPConfiguration: Sendable, Hashable {
    /// Largest accepted request body; larger bodies get 413. The biggest legitimate body (a
    /// preferences update with weekly schedules) is a few KiB.
    public var maxBodyBytes: Int
    /// Most HTTP connections open at once. At the cap a new connection closes the connection
    /// idle the longest; when every one has a request in progress, the new one is closed. Each
    /// connection is a file descriptor: the process needs this many plus the APNs pools and
    /// SQLite (`DescriptorBudget`).
    public var maxConnections: Int

    public static let defaultMaxBodyBytes = 64 * 1024
    public static let allowedMaxBodyBytes = 1024...(16 * 1024 * 1024)
    public static let defaultMaxConnections = 4096
    /// Below 16 a handful of keep-alive clients would shed each other constantly; above a million
    /// no kernel's descriptor limit fits.
    public static let allowedMaxConnections = 16...1_000_000

    public init(
        maxBodyBytes: Int = HTTPConfiguration.defaultMaxBodyBytes,
        maxConnections: Int = HTTPConfiguration.defaultMaxConnections
    ) {
        self.maxBodyBytes = maxBodyBytes
        self.maxConnections = maxConnections
    }
}
