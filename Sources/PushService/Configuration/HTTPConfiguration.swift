/// Limits of the HTTP API (`http:`, optional).
public struct HTTPConfiguration: Sendable, Hashable {
    /// Largest accepted request body; larger bodies get 413. The biggest legitimate body (a
    /// preferences update with weekly schedules) is a few KiB.
    public var maxBodyBytes: Int
    /// Most HTTP connections open at once. At the cap a new connection closes one that has not
    /// finished sending a request (see `ConnectionLimiter`); when every one is handling a
    /// request, the new one is closed. Each connection is a file
    /// descriptor: the process needs this many plus the APNs pools and SQLite (`DescriptorBudget`).
    public var maxConnections: Int
    /// How long a client has to send a request head, from the accept or, on a kept-alive
    /// connection, from the head's first bytes.
    public var headerTimeout: Duration
    /// How long a kept-alive connection may sit with nothing of a next request arriving.
    public var idleTimeout: Duration
    /// How long a client has to send a request body in full, from the end of its head. A
    /// deadline rather than a minimum rate: bodies are bounded, so this bounds how long any
    /// client holds a connection (see `RequestProgress`).
    public var bodyTimeout: Duration
    /// How long a response may wait on a client that does not read it: from the response's start,
    /// or the last progress of its writes (nginx's `send_timeout`, HAProxy's `timeout client`).
    public var sendTimeout: Duration

    public static let defaultMaxBodyBytes = 64 * 1024
    public static let allowedMaxBodyBytes = 1024...(16 * 1024 * 1024)
    public static let defaultMaxConnections = 4096
    /// Below 16 a handful of keep-alive clients would shed each other constantly; above a million
    /// no kernel's descriptor limit fits.
    public static let allowedMaxConnections = 16...1_000_000
    /// A real client sends its head in one packet, a webhook of 1 MiB in well under a second:
    /// both defaults leave ample room for a slow link while bounding what a trickling client holds.
    public static let defaultHeaderTimeout = Duration.seconds(10)
    public static let defaultBodyTimeout = Duration.seconds(30)
    /// As long as clients' pools keep a connection (and the relay always did): one closed just as
    /// a client sends on it fails that request. Idle connections are the first shed at the cap.
    public static let defaultIdleTimeout = Duration.seconds(60)
    public static let allowedIdleTimeout: ClosedRange<Duration> = .seconds(1) ... .seconds(3600)
    /// Below a second a loaded relay or a congested link could miss them; beyond a few minutes
    /// they no longer bound anything.
    public static let allowedHeaderTimeout: ClosedRange<Duration> = .seconds(1) ... .seconds(300)
    public static let allowedBodyTimeout: ClosedRange<Duration> = .seconds(1) ... .seconds(600)
    /// The largest answer (the OpenAPI document, 70 KB) reaches a client on a slow mobile link
    /// within seconds; a client that reads nothing for this long is not coming back for it.
    public static let defaultSendTimeout = Duration.seconds(30)
    public static let allowedSendTimeout: ClosedRange<Duration> = .seconds(1) ... .seconds(600)

    public init(
        maxBodyBytes: Int = HTTPConfiguration.defaultMaxBodyBytes,
        maxConnections: Int = HTTPConfiguration.defaultMaxConnections,
        headerTimeout: Duration = HTTPConfiguration.defaultHeaderTimeout,
        bodyTimeout: Duration = HTTPConfiguration.defaultBodyTimeout,
        idleTimeout: Duration = HTTPConfiguration.defaultIdleTimeout,
        sendTimeout: Duration = HTTPConfiguration.defaultSendTimeout
    ) {
        self.maxBodyBytes = maxBodyBytes
        self.maxConnections = maxConnections
        self.headerTimeout = headerTimeout
        self.bodyTimeout = bodyTimeout
        self.idleTimeout = idleTimeout
        self.sendTimeout = sendTimeout
    }
}
