import Foundation

/// The outcome for one member: the decision, and for a push the payload and the tokens it goes
/// to. Every member gets one, so skipped members can be logged with their reason.
public struct RecipientPlan: Sendable, Hashable {
    public var userID: String
    public var decision: PushDecision
    /// Set exactly when `decision` is `.push`.
    public var payload: PushPayload?
    /// The Android data message form of `payload`, when the member has an FCM or HMS token: the
    /// same bytes for both providers.
    public var dataPayload: DataMessagePayload?
    /// The member's tokens (empty unless pushed).
    public var deviceTokens: [DeviceToken]

    public init(
        userID: String, decision: PushDecision, payload: PushPayload? = nil, dataPayload: DataMessagePayload? = nil,
        deviceTokens: [DeviceToken] = []
    ) {
        self.userID = userID
        self.decision = decision
        self.payload = payload
        self.dataPayload = dataPayload
        self.deviceTokens = deviceTokens
    }

    /// One delivery per device token, with its provider's payload (the same bytes for every
    /// token of one provider).
    public var deliveries: [PlannedDelivery] {
        guard let payload else { return [] }
        return deviceTokens.compactMap { token in
            switch token.provider {
            case .apns: PlannedDelivery(userID: userID, deviceToken: token, payload: payload.data, sharedSpans: payload.sharedSpans)
            case .fcm, .hms: dataPayload.map { PlannedDelivery(userID: userID, deviceToken: token, payload: $0.json) }
            }
        }
    }
}
