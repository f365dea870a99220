import Foundation
import HTTP2Transport

/// Sends notifications to APNs over a pool of HTTP/2 connections.
///
/// One client serves one credential on one endpoint. `send` may be called from many tasks at
/// once. It refuses malformed requests locally, resends requests the server never processed
/// (REFUSED_STREAM, streams above a GOAWAY's last-stream-id, queued work of a dead connection),
/// renews the provider token once on `ExpiredProviderToken`, replaces a connection that refuses
/// the renewed token (`TooManyProviderTokenUpdates`) and sends once more, and otherwise reports
/// exactly what APNs said; `APNsResponse.outcome` says what to do about it.
public final class APNsClient: Sendable {
    public let configuration: APNsClientConfiguration
    private let transport: HTTP2Client

    public init(configuration: APNsClientConfiguration) throws(APNsError) {
        self.configuration = configuration
        do {
            transport = try HTTP2Client(configuration: configuration.transport)
        } catch {
            throw .transport(error)
        }
    }

    /// Sends one notification and returns APNs' answer.
    ///
    /// - Throws: `APNsError` when there is no answer (see `isRetryable`), `CancellationError`
    ///   when the task is cancelled.
    public func send(_ request: APNsRequest, timeout: Duration? = nil) async throws -> APNsResponse {
        let handle = APNsSendHandle()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                submit(request, timeout: timeout, handle: handle) { continuation.resume(with: $0) }
            }
        } onCancel: {
            handle.cancel()
        }
    }

    /// Sends one notification and gives `completion` what `send` would return or throw
    /// (`CancellationError` after `cancel()` on the handle), without a task waiting for it: for
    /// callers that keep thousands in flight (a task per notification costs more than its
    /// HTTP/2 work). `completion` runs once, on a connection's thread (or the caller's, when
    /// the request is refused at once): it must be quick and must not block.
    @discardableResult
    public func submit(
        _ request: APNsRequest, timeout: Duration? = nil,
        completion: @escaping @Sendable (Result<APNsResponse, any Error>) -> Void
    ) -> APNsSendHandle {
        let handle = APNsSendHandle()
        submit(request, timeout: timeout, handle: handle, completion: completion)
        return handle
    }

    private func submit(
        _ request: APNsRequest, timeout: Duration?, handle: APNsSendHandle,
        completion: @escaping @Sendable (Result<APNsResponse, any Error>) -> Void
    ) {
        do {
            try request.validate()
        } catch {
            completion(.failure(APNsError.invalidRequest(error)))
            return
        }
        let deadline = ContinuousClock.now + (timeout ?? configuration.requestTimeout)
        attempt(request.http2Request, deadline: deadline, retries: [], handle: handle, completion: completion)
    }

    /// What an attempt already did again, each at most once per notification.
    private struct Retries: OptionSet {
        let rawValue: UInt8
        /// Minted a new provider token after `ExpiredProviderToken`.
        static let renewedToken = Retries(rawValue: 1)
        /// Moved off a connection that refused the current token.
        static let movedConnection = Retries(rawValue: 2)
    }

    private func attempt(
        _ http: HTTP2Request, deadline: ContinuousClock.Instant, retries: Retries, handle: APNsSendHandle,
        completion: @escaping @Sendable (Result<APNsResponse, any Error>) -> Void
    ) {
        let sent = transport.submit(http, deadline: deadline) { [self] result in
            switch result {
            case .response(let answer, let generation, let connection):
                let response = APNsResponse(answer)
                guard case .token(let cache) = configuration.authentication, let generation else {
                    completion(.success(response))
                    return
                }
                if response.status == 403, response.reason == .expiredProviderToken, !retries.contains(.renewedToken) {
                    // Many requests may fail with the same stale token; the cache mints a new one
                    // only for the first of them (generation guard), the rest reuse it.
                    do {
                        _ = try cache.invalidate(generation: generation)
                    } catch {
                        completion(.failure(error))
                        return
                    }
                    attempt(
                        http, deadline: deadline, retries: retries.union(.renewedToken), handle: handle, completion: completion)
                    return
                }
                // APNs holds a connection to the token it first accepted there for 20 minutes,
                // unless that token was refused as expired on it. After a renewal that this
                // connection did not see, it refuses every request with the new token: it is
                // retired (the pool opens another, which takes the token as its first) and the
                // request goes once more. Minting again would not help: the token is fresh.
                if response.status == 429, response.reason == .tooManyProviderTokenUpdates,
                    !retries.contains(.movedConnection),
                    transport.retire(
                        connection: connection, olderThanTokenGeneration: generation, reason: "TooManyProviderTokenUpdates")
                {
                    attempt(
                        http, deadline: deadline, retries: retries.union(.movedConnection), handle: handle,
                        completion: completion)
                    return
                }
                completion(.success(response))
            case .failure(let error):
                completion(.failure(APNsError.transport(error)))
            case .cancelled:
                completion(.failure(CancellationError()))
            }
        }
        handle.attach(sent)
    }

    /// The pool right now.
    public var statistics: TransportStatistics { transport.statistics }

    /// Finishes in-flight requests (up to 5 s), fails queued ones with `.shutdown`, and closes
    /// every connection with GOAWAY.
    public func shutdown() async {
        await transport.shutdown()
    }
}
