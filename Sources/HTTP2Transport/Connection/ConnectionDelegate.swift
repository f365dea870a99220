/// How a connection hands work back to its pool.
protocol ConnectionDelegate: AnyObject, Sendable {
    /// Requests that never reached the server on this connection (queued, refused, or above a
    /// GOAWAY's last-stream-id): place them elsewhere.
    func resend(_ requests: [PendingRequest], from connection: APNsConnection, reason: String)
    func connectionDidConnect(_ connection: APNsConnection)
    /// The connection is gone; `unsent` never reached the server.
    func connectionDidClose(_ connection: APNsConnection, error: APNsError?, unsent: [PendingRequest])
}
