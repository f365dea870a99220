/// Where one HTTP/1 connection is in its request/response cycle, and the deadline it has to
/// meet there: the decisions only, with no I/O (`ConnectionLimitHandler` feeds it the parts it
/// sees and applies the answers). Times are milliseconds on a monotonic clock.
///
/// - The request head must be complete `headerTimeout` after the connection was accepted, or,
///   on a kept-alive connection, after the head's first bytes arrived. A kept-alive connection
///   where nothing of a next request has arrived is closed `idleTimeout` after its last response
///   (60 s, as before: clients' pools keep connections that long, and one closed under a
///   client's request in flight fails that request; at the cap idle ones are shed first).
/// - The body must be complete `bodyTimeout` after its head. A whole-body deadline rather than
///   a minimum rate: bodies are bounded (`http.max_body_bytes`, 1 MiB for the webhook), so a
///   deadline bounds how long any client can hold a connection to header + body timeouts,
///   whereas a client keeping exactly to a minimum rate could hold one for size / rate.
/// - Neither is restarted by bytes arriving: a client trickling one byte a second is as late
///   as one sending nothing.
/// - A request received in full is being handled: no deadline, and never shed.
/// - A response under way must reach the socket `sendTimeout` after it started, or after its last
///   progress (a write completed, or the socket drained enough to take more): a client that does
///   not read its answers is closed (nginx's `send_timeout`). Until then it waits on its client,
///   like one sending slowly, and may be shed at the cap.
struct RequestProgress: Sendable {
    /// What `ConnectionLimiter` needs to know to choose a connection to shed.
    enum Phase: Sendable, Hashable {
        /// Accepted, and nothing read from it yet: it may hold a whole request waiting to be
        /// read, or nothing at all (the head deadline bounds that).
        case fresh
        /// Kept alive between requests: a response went out and nothing of the next request
        /// has arrived.
        case idle
        /// Part of a request has arrived: some of its head, or its head and part of its body.
        case receiving
        /// A request was received in full and its response is not written yet.
        case handling
        /// A response is under way and has not all reached the socket: the client is expected to
        /// read it.
        case sending
    }

    typealias Stage = RequestStage

    struct Deadline: Sendable, Hashable {
        var stage: Stage
        var atMs: Int64
    }

    /// What to do when the deadline passes.
    enum Expiry: Sendable, Hashable {
        /// Close without a word: a kept-alive connection past its idle time (an answer could
        /// cross a request its client sends at that moment), or a response is already under
        /// way or done.
        case close
        /// Answer 408 for the late request, then close.
        case answer(Stage)
    }

    let headerTimeoutMs: Int64
    let bodyTimeoutMs: Int64
    let idleTimeoutMs: Int64
    let sendTimeoutMs: Int64

    /// Request heads read whose response has not been written in full (HTTP/1.1 pipelining can
    /// read the next head before the previous response is out).
    private var unanswered = 0
    /// The last head read has not had its end yet.
    private var bodyPending = false
    /// Nothing has been read yet.
    private var fresh = true
    /// Bytes of the next head arrived that did not make a head yet.
    private var headStarted = false
    /// A response head was written and its end not yet.
    private var responding = false
    /// Response ends written whose bytes have not all reached the socket.
    private(set) var queuedResponses = 0
    /// When the response under way started, or last made progress.
    private var sendingSinceMs: Int64 = 0
    /// When the connection became ready for its next head.
    private var readySinceMs: Int64
    /// When the head of the pending body was read.
    private var headAtMs: Int64 = 0
    /// When the first bytes of the next head arrived on a kept-alive connection.
    private var headStartedAtMs: Int64 = 0

    init(headerTimeoutMs: Int64, bodyTimeoutMs: Int64, idleTimeoutMs: Int64 = 60_000, sendTimeoutMs: Int64 = 30_000, nowMs: Int64) {
        self.headerTimeoutMs = headerTimeoutMs
        self.bodyTimeoutMs = bodyTimeoutMs
        self.idleTimeoutMs = idleTimeoutMs
        self.sendTimeoutMs = sendTimeoutMs
        readySinceMs = nowMs
    }

    /// Requests read whose answers have not all reached the socket.
    var unansweredRequests: Int { unanswered }

    /// A response is under way: started, or written and not all on the socket.
    var isSending: Bool { responding || queuedResponses > 0 }

    var phase: Phase {
        isSending ? .sending : requestPhase
    }

    /// Where the requests are, leaving responses aside.
    private var requestPhase: Phase {
        if unanswered - (bodyPending ? 1 : 0) > 0 { return .handling }
        if fresh { return .fresh }
        return bodyPending || headStarted ? .receiving : .idle
    }

    /// The deadline the connection must meet next; nil while it handles a request. While a
    /// response is under way, the send deadline, or a pipelined request's if that comes first.
    var deadline: Deadline? {
        guard isSending else { return requestDeadline }
        let send = Deadline(stage: .send, atMs: sendingSinceMs + sendTimeoutMs)
        guard let request = requestDeadline, request.atMs < send.atMs else { return send }
        return request
    }

    private var requestDeadline: Deadline? {
        switch requestPhase {
        case .handling, .sending: nil
        case .idle: Deadline(stage: .idle, atMs: readySinceMs + idleTimeoutMs)
        case .fresh: Deadline(stage: .header, atMs: readySinceMs + headerTimeoutMs)
        case .receiving:
            bodyPending
                ? Deadline(stage: .body, atMs: headAtMs + bodyTimeoutMs)
                : Deadline(stage: .header, atMs: max(readySinceMs, headStartedAtMs) + headerTimeoutMs)
        }
    }

    /// What to do once `deadline` has passed (nil when there is none).
    var expiry: Expiry? {
        guard let deadline else { return nil }
        switch deadline.stage {
        case .idle, .send:
            return .close
        case .header:
            // A new connection was expected to send a request: it is told why it is closed.
            return (fresh || headStarted) && !responding ? .answer(.header) : .close
        case .body:
            // The pending request has no answer yet, and no other response is half written.
            return unanswered > 0 && !responding ? .answer(.body) : .close
        }
    }

    /// Bytes arrived that completed no request part: the start of a head (or, in a body, more
    /// of it, which changes nothing).
    mutating func bytesArrived(nowMs: Int64) {
        if !bodyPending && !headStarted {
            headStarted = true
            // A new connection's head was due from its accept; a kept-alive one's from now.
            if !fresh { headStartedAtMs = nowMs }
        }
        fresh = false
    }

    mutating func headReceived(nowMs: Int64) {
        fresh = false
        unanswered += 1
        bodyPending = true
        headStarted = false
        headAtMs = nowMs
    }

    mutating func endReceived(nowMs: Int64) {
        guard bodyPending else { return }
        bodyPending = false
        // Answered before its body was in (an early 413, say): ready for the next head now.
        if unanswered == 0 { readySinceMs = nowMs }
    }

    mutating func responseStarted(nowMs: Int64) {
        if !isSending { sendingSinceMs = nowMs }
        responding = true
    }

    /// The handler wrote a response's end; its bytes may still wait for the socket.
    mutating func responseEnded() {
        responding = false
        queuedResponses += 1
    }

    /// The socket took more of what waits for it (it drained below NIO's low-water mark).
    mutating func writeProgressed(nowMs: Int64) {
        if isSending { sendingSinceMs = nowMs }
    }

    /// A response's end reached the socket. One without a request (the 400 for a head that
    /// failed to parse) leaves the count at zero.
    mutating func responseFinished(nowMs: Int64) {
        if queuedResponses > 0 { queuedResponses -= 1 }
        sendingSinceMs = nowMs
        if unanswered > 0 { unanswered -= 1 }
        if unanswered == 0 && !bodyPending { readySinceMs = nowMs }
    }
}
