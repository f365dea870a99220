/// What the server answered on one stream: the status, the few headers a push client reads,
/// and the body (the first 8 KiB: error bodies are small, success bodies smaller).
package struct HTTP2Response: Sendable {
    package var status: Int
    /// The header named by `TransportConfiguration.requestIDHeader` (APNs echoes the request's `apns-id`).
    package var requestID: String?
    /// The header named by `TransportConfiguration.providerIDHeader`.
    package var providerID: String?
    /// `retry-after` in delta seconds (APNs, FCM and Google's token endpoint send no dates).
    package var retryAfter: Duration?
    package var body: [UInt8]

    package init(status: Int, requestID: String? = nil, providerID: String? = nil, retryAfter: Duration? = nil, body: [UInt8] = []) {
        self.status = status
        self.requestID = requestID
        self.providerID = providerID
        self.retryAfter = retryAfter
        self.body = body
    }
}
