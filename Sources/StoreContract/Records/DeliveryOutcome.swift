/// What happened to one claimed delivery, recorded by `SQLiteStore.recordOutcomes`.
public struct DeliveryOutcome: Sendable, Hashable {
    public var deliveryID: Int64
    /// The new state: `pending` for a retry (at `nextAttemptAtMs`), or a final state.
    public var state: DeliveryState
    /// When this outcome happened (Unix ms).
    public var atMs: Int64
    /// Nil when the delivery was not sent at all (expired before sending, or put back by a
    /// shutdown): no attempt is logged and `attempts` does not grow.
    public var attempt: DeliveryAttempt?
    /// For `pending`: when to try again.
    public var nextAttemptAtMs: Int64?
    /// For `tokenInvalid`: remove the token from the registry in the same transaction.
    public var tokenRemoval: TokenRemovalRule?
    /// For a `sent` FCM delivery: the message's name at FCM (`projects/{p}/messages/{id}`).
    public var providerMessageID: String?
    /// For a `sent` delivery that went through another of the app's configurations than its
    /// token's (`PushSendResult.tokenConfiguration`): the token's configuration becomes this one,
    /// in the same transaction.
    public var tokenConfiguration: String?

    public init(
        deliveryID: Int64, state: DeliveryState, atMs: Int64, attempt: DeliveryAttempt?,
        nextAttemptAtMs: Int64? = nil, tokenRemoval: TokenRemovalRule? = nil, providerMessageID: String? = nil,
        tokenConfiguration: String? = nil
    ) {
        self.deliveryID = deliveryID
        self.state = state
        self.atMs = atMs
        self.attempt = attempt
        self.nextAttemptAtMs = nextAttemptAtMs
        self.tokenRemoval = tokenRemoval
        self.providerMessageID = providerMessageID
        self.tokenConfiguration = tokenConfiguration
    }

    /// Whether recording it changes the token registry (removes a token or moves it to another
    /// configuration): a registry write of its app.
    public var changesToken: Bool { tokenRemoval != nil || tokenConfiguration != nil }
}
