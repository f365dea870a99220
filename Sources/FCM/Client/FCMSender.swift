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
        let client = client
        return AsyncPushSend(
            clock: clock,
            send: { ttl in
                try await client.send(body: FCMMessage.body(data: push.payload, token: push.deviceToken, ttlSeconds: ttl), timeout: timeout)
            },
            answered: { Self.result($0, startedAtMs: $1, latency: $2) }, failed: Self.result
        ).submit(push, completion: completion)
    }

    public var statistics: PushSenderStatistics? {
        let s = client.statistics
        return PushSenderStatistics(
            connections: s.connections, readyConnections: s.readyConnections, inFlight: s.streamsInFlight, queued: s.queued)
    }

    public func shutdown() async { await client.shutdown() }

    public var labels: PushSenderLabels {
        PushSenderLabels(
            tokenRemovalReasons: [Self.label(.unregistered)],
            credentialErrorReasons: [FCMErrorCode.senderIDMismatch, .thirdPartyAuthError, .unauthenticated].map(Self.label) + [
                "token_exchange"
            ])
    }

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

    /// No answer: cancelled or shut down (not sent), the moment (retried), or the credentials.
    static func result(_ failure: any Error) -> PushSendResult {
        guard let error = failure as? FCMError else { return PushSendResult(.notSent) }
        if case .transport(.shutdown) = error { return PushSendResult(.notSent) }
        if error.isRetryable { return PushSendResult(.retry(after: .zero), error: "\(error)") }
        if error.isCredentialError {
            return PushSendResult(.credentialsRefused, reason: "token_exchange", label: "token_exchange", error: "\(error)")
        }
        return PushSendResult(.rejected, error: "\(error)")
    }
}
