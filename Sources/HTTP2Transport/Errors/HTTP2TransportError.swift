/// Failures where the server gave no HTTP answer (or the request never left): the HTTP/2
/// transport's errors, for every provider alike; descriptions leave the peer to the caller.
public enum HTTP2TransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No answer before the request's deadline. The server may or may not have processed it.
    case timedOut
    /// The connection died with the request in flight.
    case connectionLost(String)
    /// Could not establish a connection (DNS, TCP, TLS handshake), or could not start the
    /// request on one (no HTTP/2 stream, no `authorization`). Either way it never reached the server.
    case connectFailed(String)
    /// The server did not agree to HTTP/2 via ALPN; push providers always do, so this is a wrong endpoint.
    case alpnNotNegotiated(String?)
    /// The server sent GOAWAY and the request could not be placed on another connection in time.
    case goAway(reason: String?)
    /// The client was shut down.
    case shutdown

    /// Whether sending the same request again later may succeed.
    public var isRetryable: Bool {
        switch self {
        case .alpnNotNegotiated, .shutdown: false
        case .timedOut, .connectionLost, .connectFailed, .goAway: true
        }
    }

    public var description: String {
        switch self {
        case .timedOut: "no answer before the request deadline"
        case .connectionLost(let why): "connection lost with the request in flight: \(why)"
        case .connectFailed(let why): "cannot connect: \(why)"
        case .alpnNotNegotiated(let got): "server did not negotiate HTTP/2 (ALPN h2); it offered \(got ?? "nothing")"
        case .goAway(let reason): "the server closed the connection (GOAWAY \(reason ?? "no reason"))"
        case .shutdown: "the client is shut down"
        }
    }
}
