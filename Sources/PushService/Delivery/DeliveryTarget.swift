import APNs
import FCM
import HMS
import PushCore
import PushSending

/// Everything the dispatcher needs to deliver one app's pushes: one sender per provider the app
/// is configured for (each behind the `PushSender` seam) and the per-app settings.
public struct DeliveryTarget: Sendable {
    /// The app's senders; a provider without one gets no pushes (its tokens are skipped when
    /// planning, `noToken`).
    public var senders: [PushProvider: any PushSender] {
        didSet { formats = Self.formats(of: senders.keys) }
    }
    /// The payload format of each provider the app pushes through (what the planner builds).
    public private(set) var formats: [PushProvider: PayloadFormat]
    /// What APNs deliveries are stored with: the push type (`alert`, `background`) and priority
    /// (10, 5) of the app's `apns` settings. FCM and HMS deliveries store their provider's name
    /// and high priority.
    public var pushType: APNsPushType
    public var priority: APNsPriority
    /// How long a delivery may wait (in the queue, at the provider) before it is dropped as
    /// expired; FCM's and HMS's TTL too.
    public var timeToLive: Duration
    /// Badge, sound, mutable-content, admin-message and payload-size choices for the payload.
    public var options: AppPushOptions

    public init(
        senders: [PushProvider: any PushSender] = [:], pushType: APNsPushType = .alert, priority: APNsPriority = .immediate,
        timeToLive: Duration = .seconds(86_400), options: AppPushOptions = AppPushOptions()
    ) {
        self.senders = senders
        formats = Self.formats(of: senders.keys)
        self.pushType = pushType
        self.priority = priority
        self.timeToLive = timeToLive
        self.options = options
    }

    /// From clients (tests, benchmarks): each wrapped in its provider's sender.
    public init(
        apns: APNsClient? = nil, fcm: FCMClient? = nil, hms: HMSClient? = nil, topic: String = "", pushType: APNsPushType = .alert,
        priority: APNsPriority = .immediate, timeToLive: Duration = .seconds(86_400), options: AppPushOptions = AppPushOptions()
    ) {
        var senders: [PushProvider: any PushSender] = [:]
        if let apns { senders[.apns] = APNsSender(client: apns, topic: topic, defaultPushType: pushType, defaultPriority: priority) }
        if let fcm { senders[.fcm] = FCMSender(client: fcm) }
        if let hms { senders[.hms] = HMSSender(client: hms) }
        self.init(senders: senders, pushType: pushType, priority: priority, timeToLive: timeToLive, options: options)
    }

    /// Closes every sender after its in-flight requests.
    public func shutdown() async {
        for sender in senders.values { await sender.shutdown() }
    }

    /// Whether this app's pushes can go through `provider` (asked per push: no set is built).
    public func delivers(through provider: PushProvider) -> Bool { senders[provider] != nil }

    /// Where this app's pushes can go.
    public var providers: Set<PushProvider> { Set(senders.keys) }

    /// Every provider's format, for checks made before an app is known.
    static var knownFormats: some Sequence<PayloadFormat> { formats(of: PushProvider.allCases).values }

    static func formats(of providers: some Sequence<PushProvider>) -> [PushProvider: PayloadFormat] {
        Dictionary(uniqueKeysWithValues: providers.map { ($0, format(of: $0)) })
    }

    /// What `provider`'s devices get (the one place outside the provider modules that says so,
    /// until the provider drivers describe themselves).
    static func format(of provider: PushProvider) -> PayloadFormat {
        switch provider {
        case .apns: .notification
        case .fcm: .dataMessage(DataMapSize())
        case .hms: .dataMessage(HMSMessageSize())
        }
    }

    /// The push type a delivery to a `provider` token is stored with.
    public func storedPushType(for provider: PushProvider) -> String {
        provider.deliveryPushType ?? pushType.rawValue
    }

    /// The priority a delivery to a `provider` token is stored with: the app's for APNs, high for
    /// the Android providers (a chat message must not wait for the device's maintenance window).
    public func storedPriority(for provider: PushProvider) -> Int {
        provider.takesDataMessage ? APNsPriority.immediate.rawValue : priority.rawValue
    }

    /// The APNs client, for what only it offers (the configuration check's probe).
    public var apns: APNsClient? { (senders[.apns] as? APNsSender)?.client }
    /// `apns-topic`, the app's bundle id.
    public var topic: String { (senders[.apns] as? APNsSender)?.topic ?? "" }
    /// The FCM client, likewise.
    public var fcm: FCMClient? { (senders[.fcm] as? FCMSender)?.client }
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
