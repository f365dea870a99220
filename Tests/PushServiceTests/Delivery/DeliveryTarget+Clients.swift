import APNs
import FCM
import HMS
import ProviderDriver
import PushCore
import PushEngine
import PushSending
import PushService
import PushStore
import StoreContract

// The tests' shorthands for targets and settings of the three providers (the service itself names none).
extension DeliveryTarget {
    /// From clients, each wrapped in its provider's route.
    init(
        apns: APNsClient? = nil, fcm: FCMClient? = nil, hms: HMSClient? = nil, topic: String = "", pushType: APNsPushType = .alert,
        priority: APNsPriority = .immediate, timeToLive: Duration = .seconds(86_400), options: AppPushOptions = AppPushOptions()
    ) {
        var routes: [ProviderRoute] = []
        if let apns { routes.append(APNsDriver.route(client: apns, topic: topic, pushType: pushType, priority: priority)) }
        if let fcm { routes.append(FCMDriver.route(client: fcm)) }
        if let hms { routes.append(HMSDriver.route(client: hms)) }
        self.init(routes: routes, timeToLive: timeToLive, options: options)
    }

    /// From senders (fakes behind the seam), each with its provider's payload format.
    init(senders: [PushProvider: any PushSender]) {
        self.init(
            routes: senders.map { provider, sender in
                let description = ProviderCatalog.installed.description(of: provider)
                return ProviderRoute(
                    provider: provider, sender: sender, format: description?.payloadFormat ?? .notification,
                    pushType: description?.testPushType ?? provider.rawValue)
            })
    }

    var apns: APNsClient? { (senders[.apns] as? APNsSender)?.client }
    var topic: String { (senders[.apns] as? APNsSender)?.topic ?? "" }
    var fcm: FCMClient? { (senders[.fcm] as? FCMSender)?.client }
}

extension AppConfiguration {
    var apns: APNsAppConfiguration? { providers.settings(APNsAppConfiguration.self) }
    var fcm: FCMAppConfiguration? { providers.settings(FCMAppConfiguration.self) }
    var hms: HMSAppConfiguration? { providers.settings(HMSAppConfiguration.self) }
}

extension PushProvider {
    /// The push type a delivery of this provider is stored with when the app's push type is `alert`.
    var storedPushType: String { self == .apns ? "alert" : rawValue }
}

/// The APNs forms, which most tests mean.
extension DeviceTokenStore {
    func registerToken(app: String, user: String, token: String, isUnique: Bool) async throws -> TokenRegistration {
        try await registerToken(app: app, user: user, token: token, isUnique: isUnique, provider: .apns)
    }

    func owner(app: String, token: String) async throws -> String? {
        try await owner(app: app, token: token, provider: .apns)
    }
}
