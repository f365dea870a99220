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

    public init(connections: Int = 0, readyConnections: Int = 0, inFlight: Int = 0, queued: Int = 0) {
        self.connections = connections
        self.readyConnections = readyConnections
        self.inFlight = inFlight
        self.queued = queued
    }
}
