import HummingbirdCore
import Logging
import Metrics
import NIOCore
import PushStore
import Synchronization

/// The HTTP server's connection limit, shared by every event loop: `ConnectionLimiter`'s
/// decisions under a lock, applied to channels (closing the one shed or refused), counted in
/// metrics and logged at most once per interval and kind. `ConnectionLimitHandler` reports
/// each connection's life to it.
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
    private let limiter: Mutex<ConnectionLimiter<any Channel>>
    private let logger: Logger
    private let logThrottle = LogThrottle(interval: .seconds(10))
    private let clock: @Sendable () -> Int64
    private let openGauge = Gauge(label: "pushrelay_http_connections")
    private let shedCounter = Counter(label: "pushrelay_http_connections_limited_total", dimensions: [("action", "closed_idle")])
    private let refusedCounter = Counter(label: "pushrelay_http_connections_limited_total", dimensions: [("action", "refused")])

    init(maximum: Int, logger: Logger, clock: @escaping @Sendable () -> Int64 = WallClock.milliseconds) {
        self.maximum = maximum
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

    /// Admits `channel` (its id) or refuses it (nil: the caller closes it). At the limit the
    /// connection idle the longest is closed to make room.
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
        case .admittedClosing(let id, let idle):
            // Thread-safe: the close runs on the idle channel's own event loop.
            idle.close(promise: nil)
            shedCounter.increment()
            log(.notice, "closed_idle", "HTTP connection limit reached: closed the connection idle the longest")
            return id
        case .refused:
            refusedCounter.increment()
            log(.warning, "refused", "HTTP connection limit reached with every connection busy: refused a new connection")
            return nil
        }
    }

    func requestStarted(_ id: ID) {
        limiter.withLock { $0.requestStarted(id) }
    }

    func responseFinished(_ id: ID) {
        limiter.withLock { $0.responseFinished(id) }
    }

    func closed(_ id: ID) {
        limiter.withLock { limiter in
            limiter.closed(id)
            openGauge.record(limiter.openCount)
        }
    }

    /// At the limit this happens once per new connection: one line per interval, with the
    /// count of those held back, keeps a flood of clients from flooding the journal.
    private func log(_ level: Logger.Level, _ key: String, _ message: Logger.Message) {
        guard let heldBack = logThrottle.admit(key, nowMs: clock()) else { return }
        var metadata: Logger.Metadata = ["max_connections": .stringConvertible(maximum)]
        if heldBack > 0 { metadata["more_not_logged"] = .stringConvertible(heldBack) }
        logger.log(level: level, message, metadata: metadata)
    }
}
