import PushCore

/// What happened to one message for one user: the decision and every delivery with its attempts.
public struct MessageDeliveryLog: Sendable, Hashable {
    public var appID: String
    public var messageID: Int64
    public var userID: String
    /// Nil when the event never reached the relay (or was pruned).
    public var decision: PushDecision?
    /// When the event was accepted (Unix ms).
    public var acceptedAtMs: Int64?
    public var deliveries: [LoggedDelivery]

    public init(
        appID: String, messageID: Int64, userID: String, decision: PushDecision?, acceptedAtMs: Int64?,
        deliveries: [LoggedDelivery]
    ) {
        self.appID = appID
        self.messageID = messageID
        self.userID = userID
        self.decision = decision
        self.acceptedAtMs = acceptedAtMs
        self.deliveries = deliveries
    }
}

/// A delivery with its attempt history.
public struct LoggedDelivery: Sendable, Hashable {
    public var delivery: DeliveryRecord
    /// Oldest first.
    public var attempts: [DeliveryAttempt]
    /// When the device said it got the push (`POST /v3/sdk/push_delivery`), Unix ms.
    public var acknowledgedAtMs: Int64?
    /// When the user opened the push (`POST /v3/sdk/push_click`, or `push_delivery` with
    /// `event_type: CLICKED`), Unix ms.
    public var clickedAtMs: Int64?
    /// FCM's name for the sent message (`projects/{project}/messages/{id}`); nil for APNs.
    public var providerMessageID: String?
    /// A test push (`TestDelivery`), not a message's.
    public var isTest: Bool

    public init(
        delivery: DeliveryRecord, attempts: [DeliveryAttempt], acknowledgedAtMs: Int64? = nil, clickedAtMs: Int64? = nil,
        providerMessageID: String? = nil, isTest: Bool = false
    ) {
        self.delivery = delivery
        self.attempts = attempts
        self.acknowledgedAtMs = acknowledgedAtMs
        self.clickedAtMs = clickedAtMs
        self.providerMessageID = providerMessageID
        self.isTest = isTest
    }
}
