import ConnectionLiveness
import Logging

/// What the HTTP/2 transport (pool, connections, TLS) needs, fixed at start-up. Each provider's
/// client derives one from its own configuration; the transport serves one endpoint with one
/// credential.
package struct TransportConfiguration: Sendable {
    package var endpoint: TransportEndpoint
    /// Added to every request as it is submitted (APNs token auth); nil when requests carry
    /// their own `authorization` (FCM) or none (a client certificate).
    package var authorization: (any TransportAuthorization)?
    /// Presented during the TLS handshake (APNs certificate auth).
    package var clientIdentity: TLSClientIdentity?
    package var extraCAFile: String?
    package var trustSystemRoots: Bool
    package var connections: Int
    package var maxConcurrentStreamsPerConnection: Int
    package var connectTimeout: Duration
    /// When to PING, and when a connection that stopped answering is closed.
    package var liveness: LivenessSettings
    package var reconnectBackoff: (minimum: Duration, maximum: Duration)
    package var maximumResends: Int
    /// The response header that names the request, kept in `HTTP2Response.requestID` (APNs
    /// echoes `apns-id`); nil when the peer sends none worth reading.
    package var requestIDHeader: StaticString?
    /// A second response header kept, in `HTTP2Response.providerID` (APNs' `apns-unique-id`,
    /// which its development environment sends); nil for none.
    package var providerIDHeader: StaticString?
    package var eventHandler: (@Sendable (TransportEvent) -> Void)?
    package var logger: Logger
    /// Who is on the other end, for thread names, logs and errors ("APNs", "FCM").
    package var peerName: String
    package var testHooks: TransportTestHooks?

    package init(
        endpoint: TransportEndpoint, authorization: (any TransportAuthorization)? = nil, clientIdentity: TLSClientIdentity? = nil,
        extraCAFile: String?, trustSystemRoots: Bool, connections: Int,
        maxConcurrentStreamsPerConnection: Int = TransportDefaults.maxConcurrentStreamsPerConnection,
        connectTimeout: Duration = TransportDefaults.connectTimeout,
        liveness: LivenessSettings = LivenessSettings(),
        reconnectBackoff: (minimum: Duration, maximum: Duration) = TransportDefaults.reconnectBackoff,
        maximumResends: Int = TransportDefaults.maximumResends, requestIDHeader: StaticString? = nil,
        eventHandler: (@Sendable (TransportEvent) -> Void)?, logger: Logger, peerName: String
    ) {
        self.endpoint = endpoint
        self.authorization = authorization
        self.clientIdentity = clientIdentity
        self.extraCAFile = extraCAFile
        self.trustSystemRoots = trustSystemRoots
        self.connections = max(1, connections)
        self.maxConcurrentStreamsPerConnection = max(1, maxConcurrentStreamsPerConnection)
        self.connectTimeout = connectTimeout
        self.liveness = liveness
        self.reconnectBackoff = reconnectBackoff
        self.maximumResends = maximumResends
        self.requestIDHeader = requestIDHeader
        self.eventHandler = eventHandler
        self.logger = logger
        self.peerName = peerName
    }
}
