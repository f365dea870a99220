import PushSending

/// FCM behind the provider seam. The stored payload is the Android data map; the send wraps it
/// in `messages:send` with the token, high priority and what is left of the push's life as its TTL.
public typealias FCMSender = AsyncClientSender<FCMClient>

extension FCMClient: AsyncPushClient {
    public func send(_ push: OutgoingPush, ttlSeconds: Int64, timeout: Duration) async throws -> FCMResponse {
        try await send(body: FCMMessage.body(data: push.payload, token: push.deviceToken, ttlSeconds: ttlSeconds), timeout: timeout)
    }

    public var pushStatistics: PushSenderStatistics? {
        let s = statistics
        return PushSenderStatistics(
            connections: s.connections, readyConnections: s.readyConnections, inFlight: s.streamsInFlight, queued: s.queued)
    }

    public var pushLabels: PushSenderLabels {
        PushSenderLabels(
            tokenRemovalReasons: [Self.label(.unregistered)],
            credentialErrorReasons: [FCMErrorCode.senderIDMismatch, .thirdPartyAuthError, .unauthenticated].map(Self.label) + [
                "token_exchange"
            ])
    }

    public static func result(_ response: FCMResponse, token: String, startedAtMs: Int64, latency: Duration) -> PushSendResult {
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

    public static func result(_ failure: any Error) -> PushSendResult {
        guard let error = failure as? FCMError else { return PushSendResult(.notSent) }
        if case .transport(.shutdown) = error { return PushSendResult(.notSent) }
        if error.isRetryable { return PushSendResult(.retry(after: .zero), error: "\(error)") }
        if error.isCredentialError {
            return PushSendResult(.credentialsRefused, reason: "token_exchange", label: "token_exchange", error: "\(error)")
        }
        return PushSendResult(.rejected, error: "\(error)")
    }
}
