import APNs
import FCM
import HMS
import ProviderDriver
import PushEngine
import PushCore
import WebPush

extension ProviderCatalog {
    /// The providers this relay is built with, in the order pages and checks list them: the one
    /// line a new provider's driver joins. Nothing else in the service names a provider.
    public static let installed = ProviderCatalog([APNsDriver(), FCMDriver(), HMSDriver(), WebPushDriver()])
}

extension PushProvider {
    /// How logs, errors and pages name it (its driver's name).
    var displayName: String { ProviderCatalog.installed.displayName(of: self) }
}

extension Array where Element == String {
    /// `"a", "b" or "c"`.
    var joinedWithOr: String {
        guard count > 1 else { return first ?? "" }
        return dropLast().joined(separator: ", ") + " or " + last!
    }
}

extension DeliveryMetrics {
    /// The histograms' buckets, every installed provider's latency among them.
    public static var durationBuckets: [String: [Duration]] {
        durationBuckets(providers: ProviderCatalog.installed.descriptions.map(\.id))
    }
}
