import HTTP2Transport

extension APNsClientConfiguration {
    /// The transport's share of this configuration.
    var transport: TransportConfiguration {
        var authorization: (any TransportAuthorization)?
        var identity: TLSClientIdentity?
        switch authentication {
        case .token(let cache): authorization = cache
        case .certificate(let i): identity = i.tls
        }
        var t = TransportConfiguration(
            endpoint: endpoint, authorization: authorization, clientIdentity: identity, extraCAFile: extraCAFile,
            trustSystemRoots: trustSystemRoots, connections: connections,
            maxConcurrentStreamsPerConnection: maxConcurrentStreamsPerConnection, connectTimeout: connectTimeout,
            liveness: liveness, reconnectBackoff: reconnectBackoff,
            maximumResends: maximumResends, requestIDHeader: "apns-id", eventHandler: eventHandler, logger: logger,
            peerName: "APNs")
        t.providerIDHeader = "apns-unique-id"
        t.testHooks = testHooks
        return t
    }
}
