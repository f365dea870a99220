import Foundation

/// Sends notifications to APNs over a pool of HTTP/2 connections.
///
/// One client serves one credential on one endpoint. `send` may be called from many tasks at
/// once. It refuses malformed requests locally, resends requests the server never processed
/// (REFUSED_STREAM, streams above a GOAWAY's last-stream-id, queued work of a dead connection),
/// renews the provider token once on `ExpiredProviderToken`, and otherwise reports exactly what
/// APNs said; `APNsResponse.outcome` says what to do about it.
public final class APNsClient: Sendable {
    public let configuration: APNsClientConfiguration
    private let pool: ConnectionPool

    public init(configuration: APNsClientConfiguration) throws(APNsError) {
        Self.ignoreSIGPIPE
        self.configuration = configuration
        pool = ConnectionPool(configuration: configuration, tls: try TLSContext(configuration: configuration))
    }

    /// A write to a socket the peer closed raises SIGPIPE, which would end the process; the
    /// error is handled from the write's return value instead.
    private static let ignoreSIGPIPE: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

    /// Sends one notification and returns APNs' answer.
    ///
    /// - Throws: `APNsError` when there is no answer (see `isRetryable`), `CancellationError`
    ///   when the task is cancelled.
    public func send(_ request: APNsRequest, timeout: Duration? = nil) async throws -> APNsResponse {
        do {
            try request.validate()
        } catch {
            throw APNsError.invalidRequest(error)
        }
        let deadline = ContinuousClock.now + (timeout ?? configuration.requestTimeout)
        var renewedToken = false
        while true {
            switch await perform(request, deadline: deadline) {
            case .response(let response, let generation):
                if response.status == 403, response.reason == .expiredProviderToken, !renewedToken,
                    case .token(let cache) = configuration.authentication, let generation
                {
                    // Many requests may fail with the same stale token; the cache mints a new one
                    // only for the first of them (generation guard), the rest reuse it.
                    renewedToken = true
                    _ = try cache.invalidate(generation: generation)
                    continue
                }
                return response
            case .failure(let error):
                throw error
            case .cancelled:
                throw CancellationError()
            }
        }
    }

    private func perform(_ request: APNsRequest, deadline: ContinuousClock.Instant) async -> RequestResult {
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

    /// The pool right now.
    public var statistics: APNsClientStatistics { pool.statistics }

    /// Finishes in-flight requests (up to 5 s), fails queued ones with `.shutdown`, and closes
    /// every connection with GOAWAY.
    public func shutdown() async {
        await pool.shutdown()
    }
}
