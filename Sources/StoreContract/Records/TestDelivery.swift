/// A test push (`POST /v3/push/test`, `push-relay test-push`) as the delivery log keeps it: sent
/// once, outside the queue, and logged afterwards as a delivery already in its final state,
/// marked as a test. A dead token is removed by the same rule as a queued push's
/// (`DeliveryOutcome.tokenRemoval`), in the same transaction.
public struct TestDelivery: Sendable, Hashable {
    public var appID: String
    /// Its user id is the token's owner's, "" for a device token nobody of the app holds; its
    /// message id is 0 (no message); `createdAtMs` is when the send started.
    public var delivery: NewDelivery
    public var createdAtMs: Int64
    /// A final state: `sent`, `failed` or `tokenInvalid`.
    public var state: DeliveryState
    /// When the answer came (Unix ms).
    public var atMs: Int64
    /// The one attempt; nil when nothing was sent (no sender for the provider).
    public var attempt: DeliveryAttempt?
    /// The provider's id for the sent push (FCM's message name, HMS's request id).
    public var providerMessageID: String?
    public var tokenRemoval: TokenRemovalRule?

    public init(
        appID: String, delivery: NewDelivery, createdAtMs: Int64, state: DeliveryState, atMs: Int64, attempt: DeliveryAttempt?,
        providerMessageID: String? = nil, tokenRemoval: TokenRemovalRule? = nil
    ) {
        self.appID = appID
        self.delivery = delivery
        self.createdAtMs = createdAtMs
        self.state = state
        self.atMs = atMs
        self.attempt = attempt
        self.providerMessageID = providerMessageID
        self.tokenRemoval = tokenRemoval
    }

    /// The message id test pushes are logged under: they carry no message (badge pushes share
    /// it; `LoggedDelivery.isTest` tells them apart).
    public static let messageID: Int64 = 0
}

/// What `DeliveryLogStore.recordTestDelivery` wrote.
public struct TestDeliveryRecorded: Sendable, Hashable {
    /// The logged delivery's id.
    public var deliveryID: Int64
    /// Whether the dead token was removed (false when nobody of the app held it, or a
    /// registration after the provider's answer made it a new one).
    public var tokenRemoved: Bool

    public init(deliveryID: Int64, tokenRemoved: Bool) {
        self.deliveryID = deliveryID
        self.tokenRemoved = tokenRemoved
    }
}
