/// How a connection hands work back to its pool.
protocol ConnectionDelegate: AnyObject, Sendable {
    /// Requests that never reached the server on this connection (queued, refused, or above a
    /// GOAWAY's last-stream-id): place them elsewhere.
    func resend(_ requests: [PendingRequest], from connection: HTTP2Connection, reason: String)
    func connectionDidConnect(_ connection: HTTP2Connection)
    /// The connection is gone; `unsent` never reached the server.
    func connectionDidClose(_ connection: HTTP2Connection, error: HTTP2TransportError?, unsent: [PendingRequest])
}
