/// A sender's connections, as `/ready` and the gauges report them.
public struct PushSenderStatistics: Sendable, Hashable {
    /// Connections open or opening.
    public var connections: Int
    /// Connections ready to carry requests.
    public var readyConnections: Int
    /// Requests on the wire.
    public var inFlight: Int
    /// Requests waiting for room on a connection.
    public var queued: Int
    /// Whether `connections` and `readyConnections` are counted: false for a sender whose HTTP
    /// client keeps a pool the relay cannot see (HMS's AsyncHTTPClient).
    public var countsConnections: Bool

    public init(connections: Int = 0, readyConnections: Int = 0, inFlight: Int = 0, queued: Int = 0, countsConnections: Bool = true) {
        self.countsConnections = countsConnections
        self.connections = connections
        self.readyConnections = readyConnections
        self.inFlight = inFlight
        self.queued = queued
    }
}
