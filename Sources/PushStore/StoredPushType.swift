import PushCore

/// How a delivery row says where it goes, until deliveries keep their provider in a column of
/// their own: a provider whose pushes carry no push type of their own (FCM, HMS) stores its
/// identifier as the push type; APNs deliveries store APNs' push type (`alert`, `background`, …).
enum StoredPushType {
    /// The identifiers stored as push types by the providers that have none.
    static let providerNames: Set<String> = ["fcm", "hms"]
    static let apns = PushProvider("apns")

    static func provider(of pushType: String) -> PushProvider {
        providerNames.contains(pushType) ? PushProvider(rawValue: pushType) ?? apns : apns
    }
}
