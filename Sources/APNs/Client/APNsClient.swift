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
    private let transport: HTTP2Transport

    public init(configuration: APNsClientConfiguration) throws(APNsError) {
        self.configuration = configuration
        transport = try HTTP2Transport(configuration: configuration.transport)
    }

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
        let http = request.http2Request
        var renewedToken = false
        while true {
            switch await transport.perform(http, deadline: deadline) {
            case .response(let answer, let generation):
                let response = APNsResponse(answer)
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

    /// The pool right now.
    public var statistics: APNsClientStatistics { transport.statistics }

    /// Finishes in-flight requests (up to 5 s), fails queued ones with `.shutdown`, and closes
    /// every connection with GOAWAY.
    public func shutdown() async {
        await transport.shutdown()
    }
}
