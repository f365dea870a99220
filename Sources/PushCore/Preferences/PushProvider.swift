/// Where a device token's pushes go. Sendbird names them by token type: `apns` (type `APNS`),
/// `gcm` (type `GCM`, Firebase Cloud Messaging) and `huawei` (type `HUAWEI`, Huawei's HMS Push Kit).
public enum PushProvider: String, Sendable, Hashable, CaseIterable {
    case apns
    case fcm
    case hms

    /// The push type a delivery to an FCM token is stored with (APNs deliveries store theirs:
    /// `alert`, `background`, …), so a queued delivery says where it goes.
    public static let fcmPushType = "fcm"
    /// Likewise for HMS.
    public static let hmsPushType = "hms"

    /// Where a delivery stored with `pushType` goes.
    public init(deliveryPushType pushType: String) {
        switch pushType {
        case Self.fcmPushType: self = .fcm
        case Self.hmsPushType: self = .hms
        default: self = .apns
        }
    }

    /// The push type its deliveries are stored with; nil for APNs, whose deliveries store the
    /// app's own (`alert`, `background`).
    public var deliveryPushType: String? {
        switch self {
        case .apns: nil
        case .fcm: Self.fcmPushType
        case .hms: Self.hmsPushType
        }
    }

    /// The `{token_type}` of Sendbird's paths (`/v3/users/{id}/push/{token_type}`).
    public var pathName: String {
        switch self {
        case .apns: "apns"
        case .fcm: "gcm"
        case .hms: "huawei"
        }
    }

    /// The `type` of Sendbird's answers.
    public var sendbirdType: String {
        switch self {
        case .apns: "APNS"
        case .fcm: "GCM"
        case .hms: "HUAWEI"
        }
    }

    /// The body field a registration carries the token in.
    public var tokenField: String {
        switch self {
        case .apns: "apns_device_token"
        case .fcm: "gcm_reg_token"
        case .hms: "huawei_device_token"
        }
    }

    /// How logs and messages name it.
    public var displayName: String {
        switch self {
        case .apns: "APNs"
        case .fcm: "FCM"
        case .hms: "HMS"
        }
    }

    /// Whether the device gets the Android data map (FCM and HMS) rather than APNs' payload.
    public var takesDataMessage: Bool { self != .apns }

    /// From a path's `{token_type}`, any case; nil for another (made-up ones).
    public init?(pathName: String) {
        guard let provider = Self.allCases.first(where: { $0.pathName == pathName.lowercased() }) else { return nil }
        self = provider
    }
}
