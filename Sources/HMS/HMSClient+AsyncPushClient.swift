import PushSending

/// HMS behind the provider seam. The stored payload is the Android data map FCM carries too; the
/// send wraps it as HMS's data message.
public typealias HMSSender = AsyncClientSender<HMSClient>

extension HMSClient: AsyncPushClient {
    public func send(_ push: OutgoingPush, ttlSeconds: Int64, timeout: Duration) async throws -> HMSResponse {
        try await send(body: HMSMessage.body(data: push.payload, token: push.deviceToken, ttlSeconds: ttlSeconds), timeout: timeout)
    }

    public var pushStatistics: PushSenderStatistics? {
        // No pool of its own to report (AsyncHTTPClient keeps it): requests on the wire only.
        PushSenderStatistics(inFlight: statistics.inFlight, countsConnections: false)
    }

    public var pushLabels: PushSenderLabels {
        PushSenderLabels(
            tokenRemovalReasons: [HMSResultCode.partialSuccess.label, HMSResultCode.allTokensInvalid.label],
            credentialErrorReasons: [HMSResultCode.authenticationFailed.label, HMSResultCode.noPermission.label, "token_exchange"])
    }

    public static func result(_ response: HMSResponse, token: String, startedAtMs: Int64, latency: Duration) -> PushSendResult {
        PushSendResult(
            response.outcome(token: token, startedAtMs: startedAtMs), status: response.status, reason: response.code?.rawValue,
            label: response.code?.label, error: response.code == .success ? nil : response.message.map { String($0.prefix(300)) },
            latency: latency)
    }

    public static func result(_ failure: any Error) -> PushSendResult {
        guard let error = failure as? HMSError else { return PushSendResult(.notSent) }
        return switch error {
        case .shutdown: PushSendResult(.notSent)
        case _ where error.isRetryable: PushSendResult(.retry(after: .zero), error: "\(error)")
        case .transport, .accessTokenRefused:
            PushSendResult(.credentialsRefused, reason: "token_exchange", label: "token_exchange", error: "\(error)")
        }
    }
}
