import Foundation

/// A pool of HTTP/2 connections to one endpoint (nghttp2 + OpenSSL, one thread per connection),
/// under each push provider's client: it sends POSTs and returns the raw answer. Resends what a
/// server never processed (REFUSED_STREAM, GOAWAY, a dead connection's queue); everything else,
/// what a status means, is the provider client's business.
package final class HTTP2Client: Sendable {
    package let configuration: TransportConfiguration
    private let pool: ConnectionPool

    package init(configuration: TransportConfiguration) throws(HTTP2TransportError) {
        Self.ignoreSIGPIPE
        self.configuration = configuration
        pool = ConnectionPool(configuration: configuration, tls: try TLSContext(configuration: configuration))
    }

    /// A write to a socket the peer closed raises SIGPIPE, which would end the process; the
    /// error is handled from the write's return value instead.
    private static let ignoreSIGPIPE: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

    /// Sends `request` and gives its answer to `handler`, at most at `deadline`. `handler` runs
    /// once, on a connection's thread (or the caller's, when the request fails at once, or the
    /// canceller's): it must be quick and must not block. `cancel()` on what this returns ends
    /// the request with `.cancelled` unless its answer came first.
    package func submit(
        _ request: HTTP2Request, deadline: ContinuousClock.Instant, handler: @escaping @Sendable (RequestResult) -> Void
    ) -> TransportRequest {
        let pending = PendingRequest(request: request, deadline: deadline, handler: handler)
        pool.dispatch(pending)
        return TransportRequest(pending: pending)
    }

    /// Sends `request` and waits for its answer, at most until `deadline`.
    package func perform(_ request: HTTP2Request, deadline: ContinuousClock.Instant) async -> RequestResult {
        let pending = PendingRequest(request: request, deadline: deadline)
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                pending.install(continuation)
                pool.dispatch(pending)
            }
        } onCancel: {
            pending.complete(.cancelled)
        }
    }

    /// Takes `connection` (from `RequestResult.response`) out of use if it started on an
    /// `authorization` older than `tokenGeneration` (APNs holds a connection to its first
    /// provider token): it finishes its streams and closes, its queued requests move to another
    /// connection, and one is opened in its place. True when it was retired (or is retiring).
    package func retire(connection: Int, olderThanTokenGeneration tokenGeneration: UInt64, reason: String) -> Bool {
        pool.retire(connection: connection, olderThanTokenGeneration: tokenGeneration, reason: reason)
    }

    package var statistics: TransportStatistics { pool.statistics }

    /// Finishes in-flight requests (up to 5 s), fails queued ones with `.shutdown`, and closes
    /// every connection with GOAWAY.
    package func shutdown() async {
        await pool.shutdown()
    }
}

/// A request given to `HTTP2Client.submit`, to cancel.
package struct TransportRequest: Sendable {
    fileprivate let pending: PendingRequest

    package func cancel() {
        pending.complete(.cancelled)
    }
}
