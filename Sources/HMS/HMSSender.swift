import Foundation
import PushSending

/// HMS behind the provider seam: an app's `HMSClient`, each send a task of its own (the client
/// is `async`), each answer classified as every provider's is. The stored payload is the Android
/// data map FCM carries too; the sender wraps it as HMS's data message.
public struct HMSSender: PushSender {
    public let client: HMSClient
    /// Unix ms, for the TTL and for "registered before the send".
    let clock: @Sendable () -> Int64

    public init(client: HMSClient, clock: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1000) }) {
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
                try await client.send(body: HMSMessage.body(data: push.payload, token: push.deviceToken, ttlSeconds: ttl), timeout: timeout)
            },
            answered: { Self.result($0, token: push.deviceToken, startedAtMs: $1, latency: $2) }, failed: Self.result
        ).submit(push, completion: completion)
    }

    public var statistics: PushSenderStatistics? {
        // No pool of its own to report (AsyncHTTPClient keeps it): requests on the wire only.
        PushSenderStatistics(inFlight: client.statistics.inFlight, countsConnections: false)
    }

    public func shutdown() async { await client.shutdown() }

    public var labels: PushSenderLabels {
        PushSenderLabels(
            tokenRemovalReasons: [HMSResultCode.partialSuccess.label, HMSResultCode.allTokensInvalid.label],
            credentialErrorReasons: [HMSResultCode.authenticationFailed.label, HMSResultCode.noPermission.label, "token_exchange"])
    }

    static func result(_ response: HMSResponse, token: String, startedAtMs: Int64, latency: Duration) -> PushSendResult {
        PushSendResult(
            response.outcome(token: token, startedAtMs: startedAtMs), status: response.status, reason: response.code?.rawValue,
            label: response.code?.label, error: response.code == .success ? nil : response.message.map { String($0.prefix(300)) },
            latency: latency)
    }

    /// No answer: cancelled or shut down (not sent), the moment (retried), or the credentials.
    static func result(_ failure: any Error) -> PushSendResult {
        guard let error = failure as? HMSError else { return PushSendResult(.notSent) }
        return switch error {
        case .shutdown: PushSendResult(.notSent)
        case _ where error.isRetryable: PushSendResult(.retry(after: .zero), error: "\(error)")
        case .transport, .accessTokenRefused:
            PushSendResult(.credentialsRefused, reason: "token_exchange", label: "token_exchange", error: "\(error)")
        }
    }
}
