import PushCore

/// Everything one webhook event leads to, stored in one transaction by `SQLiteStore.commitEvents`.
public struct AcceptedEvent: Sendable, Hashable {
    public var appID: String
    public var messageID: Int64
    public var channelURL: String
    /// The sender's user id (nil for an admin message without one): erasing that user finds the
    /// payloads that name them through it.
    public var senderID: String?
    /// Unix ms when the relay accepted it.
    public var acceptedAtMs: Int64
    /// Every member's decision: push, or why not.
    public var decisions: [RecipientDecisionRecord]
    public var deliveries: [NewDelivery] { didSet { packedPayloads = nil } }
    /// The bytes the deliveries' payloads repeat (`NewDelivery.sharedSpans`), stored once.
    public var sharedPayload: [UInt8]? { didSet { packedPayloads = nil } }
    /// The deliveries' payloads as the store packs them (SQLite's `packed_payloads`), made by
    /// `EventStore.prepareForCommit` on the webhook's task: the commit then runs on SQLite's one
    /// writer without splitting and compressing them. Changing `deliveries` or `sharedPayload`
    /// drops it, and the commit makes it again.
    public var packedPayloads: [UInt8]?
    /// Store the deliveries as already in flight, because the caller hands them straight to the
    /// dispatcher after the commit instead of letting it claim them (see `Dispatcher.reserve`).
    /// A crash before they are sent is covered by `resumeInFlight()` at the next start.
    public var handedOff: Bool = false
    /// For an app with badge sync: what the pushes told each recipient's badge.
    public var badges: BadgeSnapshot?

    public init(
        appID: String, messageID: Int64, channelURL: String, senderID: String? = nil, acceptedAtMs: Int64,
        decisions: [RecipientDecisionRecord], deliveries: [NewDelivery]
    ) {
        self.appID = appID
        self.messageID = messageID
        self.channelURL = channelURL
        self.senderID = senderID
        self.acceptedAtMs = acceptedAtMs
        self.decisions = decisions
        self.deliveries = deliveries
    }
}

extension AcceptedEvent {
    /// What a plan leads to: every member's decision, a delivery made by `delivery` for each
    /// planned push, and the payload bytes they share.
    public init(
        plan: PushPlan, senderID: String?, acceptedAtMs: Int64, delivery: (PlannedDelivery) throws -> NewDelivery
    ) rethrows {
        self.init(
            appID: plan.appID, messageID: plan.messageID, channelURL: plan.channelURL, senderID: senderID,
            acceptedAtMs: acceptedAtMs,
            decisions: plan.recipients.map { RecipientDecisionRecord(userID: $0.userID, decision: $0.decision) },
            deliveries: try plan.deliveries.map(delivery))
        sharedPayload = plan.sharedPayload
    }

    /// `sharedPayload` when some payload leaves runs of it out (only then is it stored, and the
    /// payloads packed against it).
    public var usedSharedPayload: [UInt8]? {
        deliveries.contains(where: { !$0.sharedSpans.isEmpty }) ? sharedPayload : nil
    }

    /// The stored deliveries, given the ids `SQLiteStore.commitEvents` returned for this event.
    public func deliveryRecords(ids: [Int64]) -> [DeliveryRecord] {
        // By index: each delivery read in place, not copied out by zip's iterator first.
        (0..<min(ids.count, deliveries.count)).map { DeliveryRecord(id: ids[$0], event: self, delivery: deliveries[$0]) }
    }
}
