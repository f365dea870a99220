/// The transport's defaults, in one place: `TransportConfiguration` and every provider client's
/// configuration (`APNsClientConfiguration`, `FCMClientConfiguration`) start from these.
public enum TransportDefaults {
    /// Connections in a pool.
    public static let connections = 2
    /// Upper bound on concurrent streams per connection, below the server's
    /// SETTINGS_MAX_CONCURRENT_STREAMS.
    public static let maxConcurrentStreamsPerConnection = 1000
    /// Deadline of one send, from the call until the answer, including queueing and resends.
    public static let requestTimeout: Duration = .seconds(15)
    /// TCP connect plus TLS handshake plus the server's first SETTINGS.
    public static let connectTimeout: Duration = .seconds(10)
    /// Reconnect backoff after failed connection attempts: doubles from `minimum` to `maximum`.
    public static let reconnectBackoff: (minimum: Duration, maximum: Duration) = (.milliseconds(100), .seconds(30))
    /// How often one request may be moved to another connection (REFUSED_STREAM, GOAWAY) before it fails.
    public static let maximumResends = 8
}
