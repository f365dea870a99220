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
        let task = Task {
            let startedAtMs = clock()
            let body = HMSMessage.body(
                data: push.payload, token: push.deviceToken, ttlSeconds: max(1, (push.expiresAtMs - startedAtMs) / 1000))
            let started = ContinuousClock.now
            do {
                let response = try await client.send(body: body, timeout: timeout)
                completion(Self.result(response, token: push.deviceToken, startedAtMs: startedAtMs, latency: ContinuousClock.now - started))
            } catch let error as HMSError {
                completion(Self.result(error))
            } catch {
                completion(PushSendResult(.notSent))
            }
        }
        return PushSendHandle { task.cancel() }
    }

    public var statistics: PushSenderStatistics? {
        // No pool of its own to report (AsyncHTTPClient keeps it): requests on the wire only.
        PushSenderStatistics(inFlight: client.statistics.inFlight, countsConnections: false)
    }

    public func shutdown() async { await client.shutdown() }

    static func result(_ response: HMSResponse, token: String, startedAtMs: Int64, latency: Duration) -> PushSendResult {
        PushSendResult(
            response.outcome(token: token, startedAtMs: startedAtMs), status: response.status, reason: response.code?.rawValue,
            label: response.code?.label, error: response.code == .success ? nil : response.message.map { String($0.prefix(300)) },
            latency: latency)
    }

    static func result(_ error: HMSError) -> PushSendResult {
        switch error {
        case .shutdown: PushSendResult(.notSent)
        case _ where error.isRetryable: PushSendResult(.retry(after: .zero), error: "\(error)")
        case .transport, .accessTokenRefused:
            PushSendResult(.credentialsRefused, reason: "token_exchange", label: "token_exchange", error: "\(error)")
        }
    }
}
