import PushSending

/// Web Push behind the provider seam.
public typealias WebPushSender = AsyncClientSender<WebPushClient>

extension WebPushClient: AsyncPushClient {
    public func send(_ push: OutgoingPush, ttlSeconds: Int64, timeout: Duration) async throws -> WebPushAnswer {
        try await send(
            token: push.deviceToken, payload: push.payload, urgent: push.priority >= 10, ttlSeconds: ttlSeconds, timeout: timeout)
    }

    public static func result(_ answer: WebPushAnswer, token: String, startedAtMs: Int64, latency: Duration) -> PushSendResult {
        answer.result(startedAtMs: startedAtMs, latency: latency)
    }

    public static func result(_ failure: any Error) -> PushSendResult {
        guard let error = failure as? WebPushError else { return PushSendResult(.notSent) }
        return switch error {
        case .shutdown: PushSendResult(.notSent)
        case .transport: PushSendResult(.retry(after: .zero), error: "\(error)")
        case .setup: PushSendResult(.rejected, reason: "setup", label: "other", error: "\(error)")
        }
    }

    public var pushStatistics: PushSenderStatistics? {
        PushSenderStatistics(inFlight: requestsInFlight, countsConnections: false)
    }

    public var pushLabels: PushSenderLabels {
        PushSenderLabels(tokenRemovalReasons: WebPushAnswer.removalReasons, credentialErrorReasons: WebPushAnswer.credentialReasons)
    }
}
