import APNs
import FCM
import PushCore

/// Everything the dispatcher needs to deliver one app's pushes: its APNs and FCM clients (one
/// pool per credential and endpoint) and the per-app request settings.
public struct DeliveryTarget: Sendable {
    /// Nil when the app has no `apns` settings: its APNs tokens get no pushes.
    public var apns: APNsClient?
    /// Nil when the app has no `fcm` settings: its FCM tokens get no pushes.
    public var fcm: FCMClient?
    /// `apns-topic`: the app's bundle id.
    public var topic: String
    public var pushType: APNsPushType
    public var priority: APNsPriority
    /// How long a delivery may wait (in the queue, at Apple or Google) before it is dropped as
    /// expired; FCM's `ttl` too.
    public var timeToLive: Duration
    /// Badge, sound, mutable-content, admin-message and payload-size choices for the payload.
    public var options: AppPushOptions

    public init(
        apns: APNsClient? = nil, fcm: FCMClient? = nil, topic: String = "", pushType: APNsPushType = .alert,
        priority: APNsPriority = .immediate, timeToLive: Duration = .seconds(86_400),
        options: AppPushOptions = AppPushOptions()
    ) {
        self.apns = apns
        self.fcm = fcm
        self.topic = topic
        self.pushType = pushType
        self.priority = priority
        self.timeToLive = timeToLive
        self.options = options
    }

    /// Closes both clients after their in-flight requests.
    public func shutdown() async {
        await apns?.shutdown()
        await fcm?.shutdown()
    }

    /// Whether this app's pushes can go through `provider` (asked per push: no set is built).
    public func delivers(through provider: PushProvider) -> Bool {
        switch provider {
        case .apns: apns != nil
        case .fcm: fcm != nil
        }
    }

    /// Where this app's pushes can go.
    public var providers: Set<PushProvider> {
        var providers: Set<PushProvider> = []
        if apns != nil { providers.insert(.apns) }
        if fcm != nil { providers.insert(.fcm) }
        return providers
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
