import Foundation

/// One push to one device, as every provider is handed it. The payload is already in the
/// provider's form (the planner built it: APNs' JSON, or an Android data map for FCM and HMS);
/// the sender adds what its API needs (topic, credentials, TTL).
public struct OutgoingPush: Sendable {
    /// The delivery's id, the same on every attempt: APNs' `apns-id`; the others log it.
    public var pushID: UUID
    public var deviceToken: String
    public var payload: [UInt8]
    /// The provider's kind of push when it has kinds (APNs' `alert`, `background`); nil: the
    /// sender's default.
    public var pushType: String?
    /// 10: deliver at once; 5: when the device can (APNs' priorities; the others map them).
    public var priority: Int
    /// Unix ms: the provider must not deliver it after this.
    public var expiresAtMs: Int64
    /// One per message, so a repeat replaces the first notification (APNs' `apns-collapse-id`);
    /// nil for pushes that show nothing.
    public var collapseID: String?
    /// The provider configuration the device's token is registered to (an app's named APNs
    /// configurations); nil: the app's default.
    public var configuration: String?

    public init(
        pushID: UUID, deviceToken: String, payload: [UInt8], pushType: String?, priority: Int, expiresAtMs: Int64,
        collapseID: String? = nil, configuration: String? = nil
    ) {
        self.pushID = pushID
        self.deviceToken = deviceToken
        self.payload = payload
        self.pushType = pushType
        self.priority = priority
        self.expiresAtMs = expiresAtMs
        self.collapseID = collapseID
        self.configuration = configuration
    }
}
