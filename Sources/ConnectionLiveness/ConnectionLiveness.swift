/// Whether one HTTP/2 connection to a push provider is still alive, decided from what the
/// connection sees: the decisions only, with no I/O, shared by the project's own HTTP/2 transport
/// (APNs, FCM) and the AsyncHTTPClient connections (HMS). Times are offsets on one monotonic clock.
///
/// - Nothing heard for `idlePingInterval` on an idle connection, or for `stallPingInterval` while
///   requests wait for answers: send a PING.
/// - A PING unanswered for `pingTimeout`: the connection is dead; close it (its requests are
///   retried on a new one).
/// - `maximumUnansweredInARow` requests in a row ended without an answer (their deadlines passed)
///   while none was answered: close it too. A connection can answer
///   PINGs and still carry no request (a server that stopped serving streams after a protocol
///   error; one seen here after a GOAWAY): only the requests tell.
/// - A connection-level protocol error: close it. (NIO reports one after writing GOAWAY and leaves
///   the closing to the pipeline; AsyncHTTPClient 1.37 does not close, and kept opening streams on
///   a connection it had just declared dead.)
public struct ConnectionLiveness: Sendable {
    public enum Action: Sendable, Hashable {
        case none
        case sendPing
        case close(reason: String)
    }

    public let settings: LivenessSettings
    private var lastHeard: Duration
    private var pingSentAt: Duration?
    private var openRequests = 0
    private var unansweredInARow = 0
    private var closing = false

    public init(settings: LivenessSettings, now: Duration) {
        self.settings = settings
        lastHeard = now
    }

    /// Requests waiting for an answer on this connection.
    public var requestsOpen: Int { openRequests }
    public var isPingOutstanding: Bool { pingSentAt != nil }

    /// Bytes (or a frame) arrived from the server.
    public mutating func heard(now: Duration) {
        lastHeard = now
    }

    public mutating func pingAnswered(now: Duration) {
        pingSentAt = nil
        lastHeard = now
    }

    /// A PING went out (sent by `check`'s answer, or by the connection for a reason of its own).
    public mutating func pingSent(now: Duration) {
        if pingSentAt == nil { pingSentAt = now }
    }

    public mutating func requestStarted() {
        openRequests += 1
    }

    /// A request its caller gave up on (cancelled): no evidence either way.
    public mutating func requestAbandoned() {
        openRequests = max(0, openRequests - 1)
    }

    /// A request ended: `answered` when the server answered it (any status), false when it ended
    /// without an answer (its deadline passed).
    public mutating func requestEnded(answered: Bool) -> Action {
        openRequests = max(0, openRequests - 1)
        if answered {
            unansweredInARow = 0
            return .none
        }
        unansweredInARow += 1
        guard unansweredInARow >= settings.maximumUnansweredInARow else { return .none }
        return close("\(unansweredInARow) requests in a row found no answer")
    }

    /// A connection-level error (a protocol error on the connection, not on one stream).
    public mutating func connectionError(_ description: String) -> Action {
        close("connection error: \(description)")
    }

    /// What to do now; call it at least every `checkInterval`.
    public mutating func check(now: Duration) -> Action {
        guard !closing else { return .none }
        if let pingSentAt {
            return now - pingSentAt >= settings.pingTimeout ? close("no PING answer within \(settings.pingTimeout)") : .none
        }
        let quiet = now - lastHeard
        let limit = openRequests > 0 ? settings.stallPingInterval : settings.idlePingInterval
        guard quiet >= limit else { return .none }
        pingSentAt = now
        return .sendPing
    }

    /// How long until `check` may have something to do (for a poll timeout or a timer).
    public func nextCheck(now: Duration) -> Duration {
        if let pingSentAt { return max(.milliseconds(1), pingSentAt + settings.pingTimeout - now) }
        let limit = openRequests > 0 ? settings.stallPingInterval : settings.idlePingInterval
        return max(.milliseconds(1), lastHeard + limit - now)
    }

    private mutating func close(_ reason: String) -> Action {
        guard !closing else { return .none }
        closing = true
        return .close(reason: reason)
    }
}
