import Foundation

/// The outcome for one member: the decision, and for a push the payload and the tokens it goes
/// to. Every member gets one, so skipped members can be logged with their reason.
public struct RecipientPlan: Sendable, Hashable {
    public var userID: String
    public var decision: PushDecision
    /// Set exactly when `decision` is `.push`.
    public var payload: PushPayload?
    /// The member's tokens (empty unless pushed).
    public var deviceTokens: [DeviceToken]

    public init(userID: String, decision: PushDecision, payload: PushPayload? = nil, deviceTokens: [DeviceToken] = []) {
        self.userID = userID
        self.decision = decision
        self.payload = payload
        self.deviceTokens = deviceTokens
    }

    /// One delivery per device token, all with the same payload bytes.
    public var deliveries: [PlannedDelivery] {
        guard let payload else { return [] }
        return deviceTokens.map { PlannedDelivery(userID: userID, deviceToken: $0, payload: payload.data) }
    }
}
