/// Failures where the server gave no HTTP answer (or the request never left). The HTTP/2
/// transport's errors, for APNs and FCM alike; descriptions leave the peer to the caller.
public enum APNsError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Refused before sending: the request is malformed.
    case invalidRequest(APNsRequestError)
    /// No answer before the request's deadline. APNs may or may not have delivered it; resend
    /// with the same apns-id.
    case timedOut
    /// The connection died with the request in flight.
    case connectionLost(String)
    /// Could not establish a connection (DNS, TCP, TLS handshake), or could not start the
    /// request on one (no HTTP/2 stream, no provider token). Either way it never reached APNs.
    case connectFailed(String)
    /// The server did not agree to HTTP/2 via ALPN; APNs always does, so this is a wrong endpoint.
    case alpnNotNegotiated(String?)
    /// APNs sent GOAWAY and the request could not be placed on another connection in time.
    case goAway(reason: String?)
    /// The client was shut down.
    case shutdown

    /// Whether sending the same request again later may succeed.
    public var isRetryable: Bool {
        switch self {
        case .invalidRequest, .alpnNotNegotiated, .shutdown: false
        case .timedOut, .connectionLost, .connectFailed, .goAway: true
        }
    }

    public var description: String {
        switch self {
        case .invalidRequest(let e): "invalid request: \(e)"
        case .timedOut: "no answer before the request deadline"
        case .connectionLost(let why): "connection lost with the request in flight: \(why)"
        case .connectFailed(let why): "cannot connect: \(why)"
        case .alpnNotNegotiated(let got): "server did not negotiate HTTP/2 (ALPN h2); it offered \(got ?? "nothing")"
        case .goAway(let reason): "the server closed the connection (GOAWAY \(reason ?? "no reason"))"
        case .shutdown: "the client is shut down"
        }
    }
}
