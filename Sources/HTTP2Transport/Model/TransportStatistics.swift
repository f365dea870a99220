/// A snapshot of a client's pool, for metrics and readiness checks.
public struct TransportStatistics: Sendable, Hashable {
    /// Connections whose threads are running (connecting, open or draining).
    public var connections = 0
    /// Connections that completed the HTTP/2 handshake.
    public var readyConnections = 0
    public var streamsInFlight = 0
    /// Requests waiting for a stream.
    public var queued = 0
    /// The effective SETTINGS_MAX_CONCURRENT_STREAMS of each connection.
    public var maxConcurrentStreams: [Int] = []

    public init() {}
}
