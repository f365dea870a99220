/// A notification as the API accepted it, to be stored before it is answered.
public struct NewNotification: Sendable, Hashable {
    public var appID: String
    public var audience: NotificationAudience
    /// The content as JSON (`NotificationContent`'s stored form); the store keeps it as it is.
    public var content: String
    /// Replaces earlier notifications of the same key on the device (read by the dispatcher).
    public var collapseKey: String?
    /// Unix ms: when it goes out (the acceptance time for "now"), or, with `localMinute`, the
    /// earliest moment each user's time is looked for.
    public var sendAtMs: Int64
    /// Minutes after each user's local midnight, for "at 09:00 their time".
    public var localMinute: Int?
    /// At most this many pushes a minute (nil: as fast as the queue takes them).
    public var pushesPerMinute: Int?
    /// The `Idempotency-Key` header, and what identifies the request's body with it.
    public var idempotencyKey: String?
    public var requestHash: String?
    public var createdAtMs: Int64

    public init(
        appID: String, audience: NotificationAudience, content: String, collapseKey: String? = nil, sendAtMs: Int64,
        localMinute: Int? = nil, pushesPerMinute: Int? = nil, idempotencyKey: String? = nil, requestHash: String? = nil,
        createdAtMs: Int64
    ) {
        self.appID = appID
        self.audience = audience
        self.content = content
        self.collapseKey = collapseKey
        self.sendAtMs = sendAtMs
        self.localMinute = localMinute
        self.pushesPerMinute = pushesPerMinute
        self.idempotencyKey = idempotencyKey
        self.requestHash = requestHash
        self.createdAtMs = createdAtMs
    }
}
