import Foundation
import PushSending

/// FCM behind the provider seam: an app's `FCMClient`, each send a task of its own (the client
/// is `async`), each answer classified as every provider's is. The stored payload is the Android
/// data map; the sender wraps it in `messages:send` with the token, high priority and what is
/// left of the push's life as its TTL.
public struct FCMSender: PushSender {
    public let client: FCMClient
    /// Unix ms, for the TTL and for "registered before the send".
    let clock: @Sendable () -> Int64

    public init(client: FCMClient, clock: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1000) }) {
        self.client = client
        self.clock = clock
    }

    @discardableResult
    public func submit(_ push: OutgoingPush, timeout: Duration, completion: @escaping @Sendable (PushSendResult) -> Void)
        -> PushSendHandle
    {
        let task = Task {
            let startedAtMs = clock()
            let body = FCMMessage.body(
                data: push.payload, token: push.deviceToken, ttlSeconds: max(1, (push.expiresAtMs - startedAtMs) / 1000))
            let started = ContinuousClock.now
            do {
                let response = try await client.send(body: body, timeout: timeout)
                completion(Self.result(response, startedAtMs: startedAtMs, latency: ContinuousClock.now - started))
            } catch let error as FCMError {
                completion(Self.result(error))
            } catch {
                completion(PushSendResult(.notSent))
            }
        }
        return PushSendHandle { task.cancel() }
    }

    public var statistics: PushSenderStatistics? {
        let s = client.statistics
        return PushSenderStatistics(
            connections: s.connections, readyConnections: s.readyConnections, inFlight: s.streamsInFlight, queued: s.queued)
    }

    public func shutdown() async { await client.shutdown() }

    static func result(_ response: FCMResponse, startedAtMs: Int64, latency: Duration) -> PushSendResult {
        let outcome: PushSendOutcome =
            switch response.outcome {
            case .delivered(let name): .delivered(providerID: name)
            // FCM gives no moment: a token registered after the send started is a new one.
            case .tokenInvalid: .tokenDead(.registeredBefore(startedAtMs))
            case .permanentFailure: .rejected
            case .credentialsRejected: .credentialsRefused
            case .retryable(_, let after): .retry(after: after)
            }
        return PushSendResult(
            outcome, status: response.status, reason: response.error?.code.rawValue, label: response.error.map { label($0.code) },
            error: response.error?.message, latency: latency)
    }

    /// An error code as a metric label: Google's documented ones, or `other`.
    static func label(_ code: FCMErrorCode) -> String {
        if case .unknown = code { return "other" }
        return code.rawValue
    }

    static func result(_ error: FCMError) -> PushSendResult {
        if case .transport(.shutdown) = error { return PushSendResult(.notSent) }
        if error.isRetryable { return PushSendResult(.retry(after: .zero), error: "\(error)") }
        if error.isCredentialError { return PushSendResult(.credentialsRefused, reason: "token_exchange", error: "\(error)") }
        return PushSendResult(.rejected, error: "\(error)")
    }
}
