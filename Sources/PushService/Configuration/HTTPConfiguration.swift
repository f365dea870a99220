/// Limits of the HTTP API (`http:`, optional).
public struct HTTPConfiguration: Sendable, Hashable {
    /// Largest accepted request body; larger bodies get 413. The biggest legitimate body (a
    /// preferences update with weekly schedules) is a few KiB.
    public var maxBodyBytes: Int

    public static let defaultMaxBodyBytes = 64 * 1024
    public static let allowedMaxBodyBytes = 1024...(16 * 1024 * 1024)

    public init(maxBodyBytes: Int = HTTPConfiguration.defaultMaxBodyBytes) {
        self.maxBodyBytes = maxBodyBytes
    }
}
