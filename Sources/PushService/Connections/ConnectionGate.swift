import Foundation
import HTTPTypes
import HummingbirdCore
import Logging
import Metrics
import NIOCore
import PushStore
import StoreContract
import Synchronization

/// The HTTP server's connection limit and request deadlines, shared by every event loop:
/// `ConnectionLimiter`'s decisions under a lock, applied to channels (closing the one shed or
/// refused), counted in metrics and logged at most once per interval and kind.
/// `ConnectionLimitHandler` reports each connection's phases to it and enforces the deadlines.
///
/// A shed or refused connection holds its descriptor until its own event loop gets to close
/// it, and an accepted socket holds one before it reaches the gate; under a flood of new
/// connections those add up (200+ seen in the reliability test). `acceptLimit` bounds them:
/// the listener stops accepting while `maximum + inTransit` sockets are open, and new
/// clients wait in the kernel's backlog until some close.
final class ConnectionGate: Sendable {
    typealias ID = ConnectionLimiter<any Channel>.ID

    /// Sockets allowed on top of `maximum`: accepted but not yet admitted, or being closed.
    static let inTransit = 64

    let maximum: Int
    let headerTimeoutMs: Int64
    let bodyTimeoutMs: Int64
    let idleTimeoutMs: Int64
    let sendTimeoutMs: Int64
    private let limiter: Mutex<ConnectionLimiter<any Channel>>
    private let logger: Logger
    private let logThrottle = LogThrottle(interval: .seconds(10))
    private let clock: @Sendable () -> Int64
    private let openGauge = Gauge(label: "pushrelay_http_connections")
    private let shedIdleCounter = Counter(label: "pushrelay_http_connections_limited_total", dimensions: [("action", "closed_idle")])
    private let shedReceivingCounter = Counter(
        label: "pushrelay_http_connections_limited_total", dimensions: [("action", "closed_receiving")])
    private let shedFreshCounter = Counter(label: "pushrelay_http_connections_limited_total", dimensions: [("action", "closed_new")])
    private let shedSendingCounter = Counter(
        label: "pushrelay_http_connections_limited_total", dimensions: [("action", "closed_not_reading")])
    private let refusedCounter = Counter(label: "pushrelay_http_connections_limited_total", dimensions: [("action", "refused")])
    private let headerTimeoutCounter = Counter(label: "pushrelay_http_request_timeouts_total", dimensions: [("stage", "header")])
    private let bodyTimeoutCounter = Counter(label: "pushrelay_http_request_timeouts_total", dimensions: [("stage", "body")])
    private let sendTimeoutCounter = Counter(label: "pushrelay_http_request_timeouts_total", dimensions: [("stage", "send")])

    init(
        maximum: Int, headerTimeout: Duration = HTTPConfiguration.defaultHeaderTimeout,
        bodyTimeout: Duration = HTTPConfiguration.defaultBodyTimeout,
        idleTimeout: Duration = HTTPConfiguration.defaultIdleTimeout,
        sendTimeout: Duration = HTTPConfiguration.defaultSendTimeout, logger: Logger,
        clock: @escaping @Sendable () -> Int64 = WallClock.milliseconds
    ) {
        self.maximum = maximum
        headerTimeoutMs = headerTimeout.milliseconds
        bodyTimeoutMs = bodyTimeout.milliseconds
        idleTimeoutMs = idleTimeout.milliseconds
        sendTimeoutMs = sendTimeout.milliseconds
        limiter = Mutex(ConnectionLimiter(maximum: maximum))
        self.logger = logger
        self.clock = clock
    }

    /// For the listener (Hummingbird's `availableConnectionsDelegate`): counts every accepted
    /// socket until it closes, and pauses accepting at `maximum + inTransit`.
    var acceptLimit: MaximumAvailableConnections {
        MaximumAvailableConnections(maximum + Self.inTransit, logger: logger)
    }

    var openCount: Int { limiter.withLock { $0.openCount } }
    var idleCount: Int { limiter.withLock { $0.idleCount } }
    var receivingCount: Int { limiter.withLock { $0.receivingCount } }
    var freshCount: Int { limiter.withLock { $0.freshCount } }
    var sendingCount: Int { limiter.withLock { $0.sendingCount } }

    /// A connection's deadlines, starting at `nowMs`.
    func progress(nowMs: Int64) -> RequestProgress {
        RequestProgress(
            headerTimeoutMs: headerTimeoutMs, bodyTimeoutMs: bodyTimeoutMs, idleTimeoutMs: idleTimeoutMs, sendTimeoutMs: sendTimeoutMs,
            nowMs: nowMs)
    }

    /// Admits `channel` (its id) or refuses it (nil: the caller closes it). At the limit a
    /// connection that has not finished sending a request is closed to make room.
    func admit(_ channel: any Channel) -> ID? {
        // The gauge is set under the lock so that concurrent updates cannot leave a stale count.
        let admission = limiter.withLock { limiter in
            let admission = limiter.open(channel)
            openGauge.record(limiter.openCount)
            return admission
        }
        switch admission {
        case .admitted(let id):
            return id
        case .admittedClosing(let id, let shed, let phase):
            // Thread-safe: the close runs on the shed channel's own event loop.
            shed.close(promise: nil)
            switch phase {
            case .idle:
                shedIdleCounter.increment()
                log(.notice, "closed_idle", "HTTP connection limit reached: closed the connection idle the longest")
            case .receiving:
                shedReceivingCounter.increment()
                log(.notice, "closed_receiving", "HTTP connection limit reached: closed the connection sending its request the longest")
            case .sending:
                shedSendingCounter.increment()
                log(
                    .notice, "closed_not_reading", "HTTP connection limit reached: closed the connection not reading its answer the longest"
                )
            case .fresh, .handling:
                shedFreshCounter.increment()
                log(.notice, "closed_new", "HTTP connection limit reached: closed the oldest connection that has sent nothing yet")
            }
            return id
        case .refused:
            refusedCounter.increment()
            log(.warning, "refused", "HTTP connection limit reached with every connection busy: refused a new connection")
            return nil
        }
    }

    func update(_ id: ID, to phase: RequestProgress.Phase) {
        limiter.withLock { $0.update(id, to: phase) }
    }

    func closed(_ id: ID) {
        limiter.withLock { limiter in
            limiter.closed(id)
            openGauge.record(limiter.openCount)
        }
    }

    /// A connection missed its `stage` deadline and is being closed.
    func timedOut(_ stage: RequestProgress.Stage) {
        switch stage {
        case .idle:
            // A kept-alive connection nobody used: the ordinary end of one, not worth a line.
            break
        case .header:
            headerTimeoutCounter.increment()
            log(
                .notice, "timeout_header", "HTTP request head not received in time: connection closed",
                ["header_timeout_ms": .stringConvertible(headerTimeoutMs)])
        case .body:
            bodyTimeoutCounter.increment()
            log(
                .notice, "timeout_body", "HTTP request body not received in time: connection closed",
                ["body_timeout_ms": .stringConvertible(bodyTimeoutMs)])
        case .send:
            sendTimeoutCounter.increment()
            log(
                .notice, "timeout_send", "HTTP response not read by the client in time: connection closed",
                ["send_timeout_ms": .stringConvertible(sendTimeoutMs)])
        }
    }

    /// The 408 for a request late at `stage`, with Sendbird's error body.
    func timeoutResponse(_ stage: RequestProgress.Stage) -> (head: HTTPResponse, body: ByteBuffer) {
        let message =
            switch stage {
            case .idle, .header, .send: "The request head was not received within \(Self.phrase(headerTimeoutMs))."
            case .body: "The request body was not received within \(Self.phrase(bodyTimeoutMs)) of its head."
            }
        let body = ByteBuffer(string: #"{"message":"\#(message)","code":\#(SendbirdErrorCode.invalidValue.rawValue),"error":true}"#)
        let head = HTTPResponse(
            status: .requestTimeout,
            headerFields: [
                .contentType: "application/json; charset=utf-8", .contentLength: String(body.readableBytes), .connection: "close",
            ])
        return (head, body)
    }

    private static func phrase(_ milliseconds: Int64) -> String {
        milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(milliseconds) ms"
    }

    /// At the limit this happens once per new connection, and a flood of slow clients times
    /// out by the thousand: one line per interval and kind, with the count of those held back,
    /// keeps them from flooding the journal.
    private func log(_ level: Logger.Level, _ key: String, _ message: Logger.Message, _ details: Logger.Metadata? = nil) {
        guard let heldBack = logThrottle.admit(key, nowMs: clock()) else { return }
        var metadata = details ?? ["max_connections": .stringConvertible(maximum)]
        if heldBack > 0 { metadata["more_not_logged"] = .stringConvertible(heldBack) }
        logger.log(level: level, message, metadata: metadata)
    }
}
