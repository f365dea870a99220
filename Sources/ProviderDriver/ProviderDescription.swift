import PushCore

/// How a provider names itself and what its devices take: the data the REST layer, the console,
/// the metrics and the planner read instead of switching on a provider.
public struct ProviderDescription: Sendable {
    public var id: PushProvider
    /// How logs, errors and pages name it (`APNs`).
    public var displayName: String
    /// Sendbird's `{token_type}` in `/v3/users/{id}/push/{token_type}` (`gcm` for FCM).
    public var sendbirdPath: String
    /// Sendbird's `type` in its answers (`GCM`).
    public var sendbirdType: String
    /// The registration body's token field (`gcm_reg_token`).
    public var tokenField: String
    /// What its device tokens look like, and how they are stored.
    public var tokenFormat: any DeviceTokenFormat
    /// What the planner builds for its devices.
    public var payloadFormat: PayloadFormat
    /// The push type a test push is sent with, when the provider takes one (APNs' `alert`).
    public var testPushType: String?
    /// The delivery log's compatibility fields for this provider.
    public var logFields: DeliveryLogFields
    /// The push type its Live Activity pushes are sent with (APNs' `liveactivity`); nil: it has
    /// none, and the Live Activities API is not its.
    public var liveActivityPushType: String?
    /// The push type a broadcast to a channel is stored with (its token is the channel id);
    /// nil: the provider has no broadcast channels.
    public var broadcastPushType: String?

    public init(
        id: PushProvider, displayName: String, sendbirdPath: String, sendbirdType: String, tokenField: String,
        tokenFormat: any DeviceTokenFormat, payloadFormat: PayloadFormat, testPushType: String? = nil,
        logFields: DeliveryLogFields = DeliveryLogFields(), liveActivityPushType: String? = nil, broadcastPushType: String? = nil
    ) {
        self.id = id
        self.displayName = displayName
        self.sendbirdPath = sendbirdPath
        self.sendbirdType = sendbirdType
        self.tokenField = tokenField
        self.tokenFormat = tokenFormat
        self.payloadFormat = payloadFormat
        self.testPushType = testPushType
        self.logFields = logFields
        self.liveActivityPushType = liveActivityPushType
        self.broadcastPushType = broadcastPushType
    }
}

/// Fields of `GET /v3/push/deliveries` that repeat a neutral one under a provider's first name,
/// kept for clients written against them.
public struct DeliveryLogFields: Sendable, Hashable {
    /// The provider names a push by the id it was sent with (APNs' `apns-id`): the delivery shows
    /// `push_id` as `apns_id` too, and its priority.
    public var pushIDIsProviderID: Bool
    /// `provider_message_id` is also shown as `fcm_message_name`.
    public var messageName: Bool

    public init(pushIDIsProviderID: Bool = false, messageName: Bool = false) {
        self.pushIDIsProviderID = pushIDIsProviderID
        self.messageName = messageName
    }
}
