/// The provider of a delivery a relay of the previous release inserted during a fleet's roll
/// (`v9_delivery_provider` added the column; that release does not write it): it told FCM's and
/// HMS's deliveries by their push type, and every other push type meant APNs. Goes with the
/// release after this one, which makes the column required.
enum LegacyDeliveryProvider {
    static func name(ofPushType pushType: String) -> String {
        pushType == "fcm" || pushType == "hms" ? pushType : "apns"
    }
}
