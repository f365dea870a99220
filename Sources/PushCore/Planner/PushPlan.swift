/// Everything one webhook event leads to: a `RecipientPlan` per member, in webhook order.
public struct PushPlan: Sendable, Hashable {
    public var appID: String
    public var channelURL: String
    public var messageID: Int64
    public var recipients: [RecipientPlan]
    /// The bytes every APNs payload of this event repeats (`PreparedEvent.sharedBytes`); nil
    /// when nobody is pushed.
    public var sharedPayload: [UInt8]?

    public init(
        appID: String, channelURL: String, messageID: Int64, recipients: [RecipientPlan], sharedPayload: [UInt8]? = nil
    ) {
        self.appID = appID
        self.channelURL = channelURL
        self.messageID = messageID
        self.recipients = recipients
        self.sharedPayload = sharedPayload
    }

    /// Every APNs and FCM request to make.
    public var deliveries: [PlannedDelivery] { recipients.flatMap(\.deliveries) }

    /// How many members were skipped for each reason (for metrics).
    public var skipCounts: [SkipReason: Int] {
        recipients.reduce(into: [:]) { counts, plan in
            if let reason = plan.decision.skipReason { counts[reason, default: 0] += 1 }
        }
    }
}
