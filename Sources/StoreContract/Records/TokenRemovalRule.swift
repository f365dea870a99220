/// How an invalid device token leaves the registry when its delivery outcome is recorded.
public enum TokenRemovalRule: Sendable, Hashable {
    /// 410 Unregistered: only if the token was registered before APNs' timestamp (Unix ms);
    /// a later registration is a new, valid one. FCM's UNREGISTERED carries no timestamp: the
    /// moment the send started stands in.
    case ifRegisteredBefore(Int64)
    /// 400 BadDeviceToken / DeviceTokenNotForTopic: whoever holds it.
    case always
}
