import Foundation
import PushCore
import PushSending

/// APNs behind the provider seam: an app's `APNsClient` with its topic and default push type and
/// priority, each answer classified as every provider's is (`PushSendOutcome`). Answers arrive on
/// the client's connection threads, without a task per push.
public struct APNsSender: PushSender {
    public let client: APNsClient
    /// `apns-topic`: the app's bundle id.
    public let topic: String
    public let defaultPushType: APNsPushType
    public let defaultPriority: APNsPriority

    /// The push type a broadcast to a channel is stored with (its token is the channel id).
    public static let broadcastPushType = "broadcast"

    public init(client: APNsClient, topic: String, defaultPushType: APNsPushType = .alert, defaultPriority: APNsPriority = .immediate) {
        self.client = client
        self.topic = topic
        self.defaultPushType = defaultPushType
        self.defaultPriority = defaultPriority
    }

    @discardableResult
    public func submit(_ push: OutgoingPush, timeout: Duration, completion: @escaping @Sendable (PushSendResult) -> Void)
        -> PushSendHandle
    {
        // A broadcast is stored with its own push type and its channel as the token.
        let broadcast = push.pushType == Self.broadcastPushType
        let pushType = broadcast ? .liveactivity : push.pushType.flatMap(APNsPushType.init(rawValue:)) ?? defaultPushType
        // A Live Activity's pushes go to the bundle's liveactivity topic (Apple refuses the bare one).
        let request = APNsRequest(
            deviceToken: push.deviceToken, topic: pushType == .liveactivity ? LiveActivityContent.topic(bundleID: topic) : topic,
            payload: push.payload, pushType: pushType,
            priority: APNsPriority(rawValue: push.priority) ?? defaultPriority,
            expiration: .at(Date(timeIntervalSince1970: Double(push.expiresAtMs) / 1000)), collapseID: push.collapseID,
            apnsID: push.pushID, broadcastChannel: broadcast ? push.deviceToken : nil)
        let started = ContinuousClock.now
        let handle = client.submit(request, timeout: timeout) { result in
            completion(Self.result(result, latency: ContinuousClock.now - started))
        }
        return PushSendHandle { handle.cancel() }
    }

    public var statistics: PushSenderStatistics? {
        let s = client.statistics
        return PushSenderStatistics(
            connections: s.connections, readyConnections: s.readyConnections, inFlight: s.streamsInFlight, queued: s.queued)
    }

    public func shutdown() async { await client.shutdown() }

    public var labels: PushSenderLabels {
        PushSenderLabels(
            tokenRemovalReasons: [APNsReason.unregistered, .expiredToken, .badDeviceToken, .deviceTokenNotForTopic, .channelNotRegistered]
                .map(Self.label))
    }

    /// APNs' answer (or its absence) in the seam's terms.
    static func result(_ result: Result<APNsResponse, any Error>, latency: Duration) -> PushSendResult {
        switch result {
        case .success(let response):
            return PushSendResult(
                outcome(of: response), status: response.status, reason: response.reason?.rawValue,
                label: response.reason.map(label), latency: latency)
        case .failure(let error as APNsError) where error.isRetryable:
            return PushSendResult(.retry(after: .zero), error: "\(error)")
        case .failure(APNsError.transport(.shutdown)), .failure(is CancellationError):
            return PushSendResult(.notSent)
        case .failure(let error):
            return PushSendResult(.rejected, error: "\(error)")
        }
    }

    /// A reason as a metric label: Apple's documented ones, or `other`.
    static func label(_ reason: APNsReason) -> String {
        if case .unknown = reason { return "other" }
        return reason.rawValue
    }

    static func outcome(of response: APNsResponse) -> PushSendOutcome {
        switch response.outcome {
        case .delivered:
            return .delivered(providerID: response.uniqueID)
        case .tokenInvalid(_, let unregisteredAt):
            // 410 carries the moment the token stopped being valid (without it: the answer's);
            // a token that is malformed or not for this topic goes whenever it was registered.
            guard response.status == 410 else { return .tokenDead(.always) }
            return .tokenDead(
                unregisteredAt.map { .registeredBefore(Int64(($0.timeIntervalSince1970 * 1000).rounded(.down))) }
                    ?? .registeredBeforeAnswer)
        case .permanentFailure:
            return .rejected
        case .retryable(_, let after):
            return .retry(after: after)
        }
    }
}
