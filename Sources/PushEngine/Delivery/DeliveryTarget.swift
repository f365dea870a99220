import PushCore
import PushSending
import ProviderDriver

/// Everything the dispatcher needs to deliver one app's pushes: a route per provider the app is
/// configured for (its sender behind the `PushSender` seam, its payload format, what its
/// deliveries are stored with) and the per-app settings. It names no provider.
public struct DeliveryTarget: Sendable {
    /// The app's routes by provider; a provider without one gets no pushes (its tokens are
    /// skipped when planning, `noToken`).
    public private(set) var routes: [PushProvider: ProviderRoute]
    /// Each route's sender (looked up per push).
    public private(set) var senders: [PushProvider: any PushSender]
    /// The payload format of each provider the app pushes through (what the planner builds).
    public private(set) var formats: [PushProvider: PayloadFormat]
    /// How long a delivery may wait (in the queue, at the provider) before it is dropped as
    /// expired; every provider's TTL.
    public var timeToLive: Duration
    /// Badge, sound, mutable-content, admin-message and payload-size choices for the payload.
    public var options: AppPushOptions

    public init(routes: [ProviderRoute] = [], timeToLive: Duration = .seconds(86_400), options: AppPushOptions = AppPushOptions()) {
        self.routes = [:]
        senders = [:]
        formats = [:]
        self.timeToLive = timeToLive
        self.options = options
        for route in routes { add(route) }
    }

    /// Adds (or replaces) a provider's route.
    public mutating func add(_ route: ProviderRoute) {
        routes[route.provider] = route
        senders[route.provider] = route.sender
        formats[route.provider] = route.format
    }

    /// Closes every sender after its in-flight requests.
    public func shutdown() async {
        for sender in senders.values { await sender.shutdown() }
        for route in routes.values { await route.broadcastChannels?.shutdown() }
    }

    /// Whether this app's pushes can go through `provider` (asked per push: no set is built).
    public func delivers(through provider: PushProvider) -> Bool { senders[provider] != nil }

    /// Whose devices get badge pushes (`BadgePayload`, a notification payload): the provider the
    /// app sends the notification format through, if any.
    public var badgeProvider: PushProvider? {
        routes.values.filter { $0.format.isNotification }.map(\.provider).min()
    }

    /// Where this app's pushes can go.
    public var providers: Set<PushProvider> { Set(senders.keys) }

    /// The push type a delivery to a `provider` token is stored with.
    public func storedPushType(for provider: PushProvider) -> String { routes[provider]?.pushType ?? provider.rawValue }

    /// The priority a delivery to a `provider` token is stored with (high when the provider's
    /// route does not say: a chat message must not wait for a device's maintenance window).
    public func storedPriority(for provider: PushProvider) -> Int { routes[provider]?.priority ?? 10 }
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
