import ConnectionLiveness
import HTTP2Transport
import Logging

/// Everything an `APNsClient` needs, fixed at start-up. One client = one credential on one
/// endpoint (Apple binds a connection to one team and environment).
public struct APNsClientConfiguration: Sendable {
    public var endpoint: TransportEndpoint
    public var authentication: APNsAuthentication
    /// Extra PEM CA certificates trusted besides the system store (for apns-mock).
    public var extraCAFile: String?
    /// Trust the system's CA store (Apple's servers need it; tests against the mock may not).
    public var trustSystemRoots: Bool
    /// Connections in the pool. Requests are spread over them.
    public var connections: Int
    /// Upper bound on concurrent streams per connection, applied below the server's
    /// SETTINGS_MAX_CONCURRENT_STREAMS.
    public var maxConcurrentStreamsPerConnection: Int
    /// Deadline of one `send`, from the call until the answer, including queueing and resends.
    public var requestTimeout: Duration
    /// TCP connect plus TLS handshake plus the server's first SETTINGS.
    public var connectTimeout: Duration
    /// When a connection PINGs, and when one that stopped answering is replaced.
    public var liveness: LivenessSettings
    /// Reconnect backoff after failed connection attempts: doubles from `minimum` to `maximum`.
    public var reconnectBackoff: (minimum: Duration, maximum: Duration)
    /// How often one request may be moved to another connection (REFUSED_STREAM, GOAWAY)
    /// before it fails.
    public var maximumResends: Int
    /// Receives connection-level events (connects, GOAWAY, settings changes) for logs and metrics.
    public var eventHandler: (@Sendable (TransportEvent) -> Void)?
    public var logger: Logger
    /// Fault injection for tests; always nil outside them.
    var testHooks: TransportTestHooks?

    public init(
        endpoint: TransportEndpoint,
        authentication: APNsAuthentication,
        extraCAFile: String? = nil,
        trustSystemRoots: Bool = true,
        connections: Int = TransportDefaults.connections,
        maxConcurrentStreamsPerConnection: Int = TransportDefaults.maxConcurrentStreamsPerConnection,
        requestTimeout: Duration = TransportDefaults.requestTimeout,
        connectTimeout: Duration = TransportDefaults.connectTimeout,
        liveness: LivenessSettings = LivenessSettings(),
        reconnectBackoff: (minimum: Duration, maximum: Duration) = TransportDefaults.reconnectBackoff,
        maximumResends: Int = TransportDefaults.maximumResends,
        eventHandler: (@Sendable (TransportEvent) -> Void)? = nil,
        logger: Logger = Logger(label: "push-relay.apns")
    ) {
        self.endpoint = endpoint
        self.authentication = authentication
        self.extraCAFile = extraCAFile
        self.trustSystemRoots = trustSystemRoots
        self.connections = max(1, connections)
        self.maxConcurrentStreamsPerConnection = max(1, maxConcurrentStreamsPerConnection)
        self.requestTimeout = requestTimeout
        self.connectTimeout = connectTimeout
        self.liveness = liveness
        self.reconnectBackoff = reconnectBackoff
        self.maximumResends = maximumResends
        self.eventHandler = eventHandler
        self.logger = logger
    }
}
