import NIOCore
import NIOHTTPTypes

/// Requests a client pipelined beyond `maximumUnanswered`, held back until answers go out: a
/// client that sends many requests at once and never reads the answers gets at most that many
/// produced (the rest of what it sent waits here, and the connection stops reading), instead of
/// the relay writing every answer into a socket nobody reads. NIO's `HTTPServerPipelineHandler`
/// does the same with one; Hummingbird leaves pipelining to its request loop.
/// The decisions only: `ConnectionLimitHandler` feeds it the parts and delivers what it releases.
struct HeldRequests {
    /// Requests read whose answers have not all reached the socket, beyond which the next one waits.
    static let maximumUnanswered = 2

    private var parts = CircularBuffer<HTTPRequestPart>()

    var isEmpty: Bool { parts.isEmpty }
    var count: Int { parts.count }

    /// Whether `part` must wait: parts are held already (order is kept), or it starts a request
    /// while `unanswered` requests wait for their answers.
    func mustHold(_ part: HTTPRequestPart, unanswered: Int) -> Bool {
        !parts.isEmpty || (part.isHead && unanswered >= Self.maximumUnanswered)
    }

    mutating func hold(_ part: HTTPRequestPart) {
        parts.append(part)
    }

    /// The next held part that may go on now, given `unanswered`; nil while the next one waits.
    mutating func release(unanswered: Int) -> HTTPRequestPart? {
        guard let first = parts.first, !(first.isHead && unanswered >= Self.maximumUnanswered) else { return nil }
        return parts.removeFirst()
    }
}

extension HTTPRequestPart {
    var isHead: Bool {
        if case .head = self { return true }
        return false
    }
}
