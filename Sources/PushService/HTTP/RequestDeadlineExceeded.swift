/// Raised into a connection's inbound stream when its request misses a deadline
/// (`ConnectionLimitHandler`): the request's handler, waiting for more of the body, gets this
/// instead of a body cut short. The connection has been answered 408 (when it could be) and
/// closed by then.
struct RequestDeadlineExceeded: Error, Sendable, Hashable, CustomStringConvertible {
    var stage: RequestStage

    var description: String { "the request \(stage.rawValue) was not received in time" }
}

/// Where a request is: waiting on a kept-alive connection for its first bytes (`idle`), for the
/// rest of its head, or for its body.
enum RequestStage: String, Sendable, Hashable {
    case idle, header, body
}
