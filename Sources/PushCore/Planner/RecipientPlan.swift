import Foundation

/// The outcome for one member: the decision, and for a push the payload and the tokens it goes
/// to. Every member gets one, so skipped members can be logged with their reason.
public struct RecipientPlan: Sendable, Hashable {
    public var userID: String
    public var decision: PushDecision
    /// Set exactly when `decision` is `.push`.
    public var payload: PushPayload?
    /// The data message form of `payload`, when the member has a token of a provider taking it:
    /// the same bytes for every such provider.
    public var dataPayload: DataMessagePayload?
    /// The providers whose tokens get `dataPayload`; the others get `payload`.
    public var dataMessageProviders: Set<PushProvider>
    /// The member's tokens (empty unless pushed).
    public var deviceTokens: [DeviceToken]

    public init(
        userID: String, decision: PushDecision, payload: PushPayload? = nil, dataPayload: DataMessagePayload? = nil,
        dataMessageProviders: Set<PushProvider> = [], deviceTokens: [DeviceToken] = []
    ) {
        self.userID = userID
        self.decision = decision
        self.payload = payload
        self.dataPayload = dataPayload
        self.dataMessageProviders = dataMessageProviders
        self.deviceTokens = deviceTokens
    }

    /// One delivery per device token, with its provider's payload (the same bytes for every
    /// token of one provider).
    public var deliveries: [PlannedDelivery] {
        guard let payload else { return [] }
        return deviceTokens.compactMap { token in
            dataMessageProviders.contains(token.provider)
                ? dataPayload.map { PlannedDelivery(userID: userID, deviceToken: token, payload: $0.json) }
                : PlannedDelivery(userID: userID, deviceToken: token, payload: payload.data, sharedSpans: payload.sharedSpans)
        }
    }
}
