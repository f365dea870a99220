/// A snapshot of the mock's counters (``APNsMockServer/stats``, `GET /stats`).
///
/// JSON shape (admin endpoint): the property names below as keys; `responsesByStatus` is an
/// object keyed by the status code as a string, e.g. `{"200": 10, "400": 1}`.
public struct APNsMockStats: Sendable, Codable, Equatable {
    /// TCP connections accepted (including those whose TLS handshake failed).
    public var connectionsAccepted = 0
    /// TCP connections currently open.
    public var connectionsOpen = 0
    /// TLS handshakes that failed or were aborted by a `tlsHandshakeFailure` fault.
    public var tlsHandshakesFailed = 0
    /// Streams opened by clients (every request HEADERS, including refused or held ones).
    public var requestsReceived = 0
    /// Answers sent, by `:status`.
    public var responsesByStatus: [Int: Int] = [:]
    /// Distinct JWT strings that passed verification (signature, key, claims, age).
    public var distinctProviderTokensAccepted = 0
    /// Streams currently open (request seen, not yet answered or reset), over all connections.
    public var streamsOpen = 0
    /// The highest ``streamsOpen`` seen.
    public var maxStreamsConcurrentlyOpenSeen = 0
    /// The most streams seen open at once on a single connection (what SETTINGS limits).
    public var maxStreamsConcurrentlyOpenOnOneConnection = 0
    /// Streams reset with REFUSED_STREAM by a `refuseStreams` fault.
    public var streamsRefused = 0
    /// GOAWAY frames sent.
    public var goAwaysSent = 0
    /// Connections closed abruptly by a `dropConnection` fault.
    public var connectionsDropped = 0
    /// Connections silenced by a `silentConnection` fault.
    public var connectionsSilenced = 0

    public init() {}

    /// Total answers with status 200.
    public var accepted: Int { self.responsesByStatus[200, default: 0] }
}
