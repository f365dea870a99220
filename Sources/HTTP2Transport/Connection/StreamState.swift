/// One request on one HTTP/2 stream, owned by the connection thread.
final class StreamState {
    let pending: PendingRequest
    let tokenGeneration: UInt64?
    var bodyOffset = 0
    var status: Int?
    var requestID: String?
    var providerID: String?
    var retryAfter: Duration?
    var responseBody: [UInt8] = []

    init(pending: PendingRequest, tokenGeneration: UInt64?) {
        self.pending = pending
        self.tokenGeneration = tokenGeneration
    }

    var response: HTTP2Response {
        HTTP2Response(status: status ?? 0, requestID: requestID, providerID: providerID, retryAfter: retryAfter, body: responseBody)
    }
}
