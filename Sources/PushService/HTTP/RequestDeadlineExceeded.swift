/// Raised into a connection's inbound stream when its request misses a deadline
/// (`ConnectionLimitHandler`): the request's handler, waiting for more of the body, gets this
/// instead of a body cut short. The connection has been answered 408 (when it could be) and
/// closed by then.
struct RequestDeadlineExceeded: Error, Sendable, Hashable, CustomStringConvertible {
    var stage: RequestStage

    var description: String {
        stage == .send ? "the client did not read the response in time" : "the request \(stage.rawValue) was not received in time"
    }
}

/// Where a request is: waiting on a kept-alive connection for its first bytes (`idle`), for the
/// rest of its head, for its body, or for the client to read its response (`send`).
enum RequestStage: String, Sendable, Hashable {
    case idle, header, body
    /// A response the client does not read (`http.send_timeout`).
    case send
}
