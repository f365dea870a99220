import Logging

/// What the HTTP/2 transport (pool, connections, TLS) needs, fixed at start-up. `APNsClient`
/// and `FCMClient` each derive one from their own configuration; the transport serves one
/// endpoint with one credential.
package struct TransportConfiguration: Sendable {
    package var endpoint: APNsEndpoint
    /// Added to every request as it is submitted (APNs token auth); nil when requests carry
    /// their own `authorization` (FCM) or none (APNs certificate auth).
    package var authorization: (any TransportAuthorization)?
    /// Presented during the TLS handshake (APNs certificate auth).
    package var clientIdentity: APNsClientIdentity?
    package var extraCAFile: String?
    package var trustSystemRoots: Bool
    package var connections: Int
    package var maxConcurrentStreamsPerConnection: Int
    package var connectTimeout: Duration
    package var idlePingInterval: Duration
    package var pingTimeout: Duration
    package var reconnectBackoff: (minimum: Duration, maximum: Duration)
    package var maximumResends: Int
    package var eventHandler: (@Sendable (APNsClientEvent) -> Void)?
    package var logger: Logger
    /// Who is on the other end, for thread names, logs and errors ("APNs", "FCM").
    package var peerName: String
    var testHooks: TransportTestHooks?

    package init(
        endpoint: APNsEndpoint, authorization: (any TransportAuthorization)?, clientIdentity: APNsClientIdentity?,
        extraCAFile: String?, trustSystemRoots: Bool, connections: Int, maxConcurrentStreamsPerConnection: Int,
        connectTimeout: Duration, idlePingInterval: Duration, pingTimeout: Duration,
        reconnectBackoff: (minimum: Duration, maximum: Duration), maximumResends: Int,
        eventHandler: (@Sendable (APNsClientEvent) -> Void)?, logger: Logger, peerName: String
    ) {
        self.endpoint = endpoint
        self.authorization = authorization
        self.clientIdentity = clientIdentity
        self.extraCAFile = extraCAFile
        self.trustSystemRoots = trustSystemRoots
        self.connections = max(1, connections)
        self.maxConcurrentStreamsPerConnection = max(1, maxConcurrentStreamsPerConnection)
        self.connectTimeout = connectTimeout
        self.idlePingInterval = idlePingInterval
        self.pingTimeout = pingTimeout
        self.reconnectBackoff = reconnectBackoff
        self.maximumResends = maximumResends
        self.eventHandler = eventHandler
        self.logger = logger
        self.peerName = peerName
    }
}

extension APNsClientConfiguration {
    /// The transport's share of this configuration.
    var transport: TransportConfiguration {
        var authorization: (any TransportAuthorization)?
        var identity: APNsClientIdentity?
        switch authentication {
        case .token(let cache): authorization = cache
        case .certificate(let i): identity = i
        }
        var t = TransportConfiguration(
            endpoint: endpoint, authorization: authorization, clientIdentity: identity, extraCAFile: extraCAFile,
            trustSystemRoots: trustSystemRoots, connections: connections,
            maxConcurrentStreamsPerConnection: maxConcurrentStreamsPerConnection, connectTimeout: connectTimeout,
            idlePingInterval: idlePingInterval, pingTimeout: pingTimeout, reconnectBackoff: reconnectBackoff,
            maximumResends: maximumResends, eventHandler: eventHandler, logger: logger, peerName: "APNs")
        t.testHooks = testHooks
        return t
    }
}
