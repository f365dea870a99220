import Foundation

/// A provider client whose sends are `async` (FCM's and HMS's, on HTTP clients that answer with
/// an awaited response): what `AsyncClientSender` needs to put it behind the `PushSender` seam.
/// The client sends; the sender times, cancels and classifies.
public protocol AsyncPushClient: Sendable {
    associatedtype Answer: Sendable

    /// One send of `push`'s stored payload to its token, living `ttlSeconds` more at the provider.
    func send(_ push: OutgoingPush, ttlSeconds: Int64, timeout: Duration) async throws -> Answer

    /// An answer as every provider's is classified. `startedAtMs` tells a registration made after
    /// the send from one it invalidates.
    static func result(_ answer: Answer, token: String, startedAtMs: Int64, latency: Duration) -> PushSendResult

    /// No answer: cancelled or shut down (not sent), the moment (retried), or the credentials.
    static func result(_ failure: any Error) -> PushSendResult

    /// Its connections as the sender reports them (`PushSender.statistics`).
    var pushStatistics: PushSenderStatistics? { get }
    /// The label values of its answers (`PushSender.labels`).
    var pushLabels: PushSenderLabels { get }
    func shutdown() async
}

/// The one sender shape for `async` clients: each push a task of its own (`AsyncPushSend`), with
/// what is left of its life as its TTL.
public struct AsyncClientSender<Client: AsyncPushClient>: PushSender {
    public let client: Client
    /// Unix ms, for the TTL and for "registered before the send".
    let clock: @Sendable () -> Int64

    public init(client: Client, clock: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1000) }) {
        self.client = client
        self.clock = clock
    }

    @discardableResult
    public func submit(_ push: OutgoingPush, timeout: Duration, completion: @escaping @Sendable (PushSendResult) -> Void)
        -> PushSendHandle
    {
        let client = client
        return AsyncPushSend(
            clock: clock, send: { ttl in try await client.send(push, ttlSeconds: ttl, timeout: timeout) },
            answered: { Client.result($0, token: push.deviceToken, startedAtMs: $1, latency: $2) }, failed: Client.result
        ).submit(push, completion: completion)
    }

    public var statistics: PushSenderStatistics? { client.pushStatistics }
    public var labels: PushSenderLabels { client.pushLabels }
    public func shutdown() async { await client.shutdown() }
}
