import APNs
import PushCore

/// Everything the dispatcher needs to deliver one app's pushes: its APNs client (one pool per
/// credential and endpoint) and the per-app request settings.
public struct DeliveryTarget: Sendable {
    public var client: APNsClient
    /// `apns-topic`: the app's bundle id.
    public var topic: String
    public var pushType: APNsPushType
    public var priority: APNsPriority
    /// How long a delivery may wait (in the queue and at Apple) before it is dropped as expired.
    public var timeToLive: Duration
    /// Badge, sound, mutable-content, admin-message and payload-size choices for the payload.
    public var options: AppPushOptions

    public init(
        client: APNsClient, topic: String, pushType: APNsPushType = .alert,
        priority: APNsPriority = .immediate, timeToLive: Duration = .seconds(86_400),
        options: AppPushOptions = AppPushOptions()
    ) {
        self.client = client
        self.topic = topic
        self.pushType = pushType
        self.priority = priority
        self.timeToLive = timeToLive
        self.options = options
    }
}

/// Where the webhook and the dispatcher find each app's `DeliveryTarget`. The service's runtime
/// builds it from configuration (and swaps it on SIGHUP); tests build one directly.
public protocol DeliveryTargetProvider: Sendable {
    func target(forApp appID: String) -> DeliveryTarget?
}

/// A fixed set of targets.
public struct StaticDeliveryTargets: DeliveryTargetProvider {
    public let targets: [String: DeliveryTarget]

    public init(_ targets: [String: DeliveryTarget]) {
        self.targets = targets
    }

    public func target(forApp appID: String) -> DeliveryTarget? { targets[appID] }
}
