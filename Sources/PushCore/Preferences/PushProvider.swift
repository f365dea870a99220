/// Where a device token's pushes go. Sendbird names them by token type: `apns` (type `APNS`)
/// and `gcm` (type `GCM`, Firebase Cloud Messaging).
public enum PushProvider: String, Sendable, Hashable, CaseIterable {
    case apns
    case fcm

    /// The push type a delivery to an FCM token is stored with (APNs deliveries store theirs:
    /// `alert`, `background`, …), so a queued delivery says where it goes.
    public static let fcmPushType = "fcm"

    /// Where a delivery stored with `pushType` goes.
    public init(deliveryPushType pushType: String) {
        self = pushType == Self.fcmPushType ? .fcm : .apns
    }

    /// The `{token_type}` of Sendbird's paths (`/v3/users/{id}/push/{token_type}`).
    public var pathName: String {
        switch self {
        case .apns: "apns"
        case .fcm: "gcm"
        }
    }

    /// The `type` of Sendbird's answers.
    public var sendbirdType: String {
        switch self {
        case .apns: "APNS"
        case .fcm: "GCM"
        }
    }

    /// The body field a registration carries the token in.
    public var tokenField: String {
        switch self {
        case .apns: "apns_device_token"
        case .fcm: "gcm_reg_token"
        }
    }

    /// From a path's `{token_type}`, any case; nil for another (`huawei`, made-up ones).
    public init?(pathName: String) {
        guard let provider = Self.allCases.first(where: { $0.pathName == pathName.lowercased() }) else { return nil }
        self = provider
    }
}
