/// Delivery queue and shutdown settings (`delivery:`, optional).
public struct DeliveryConfiguration: Sendable, Hashable {
    /// Finished deliveries are kept this long (for inspection) before they are pruned.
    public var pruneAfter: Duration
    /// On SIGTERM, how long in-flight deliveries may take before they are left to the queue
    /// (accepted work lives in SQLite and is retried after the restart).
    public var shutdownGrace: Duration
    /// The longest an accepted push should wait, in its app's measured sending time; an event
    /// beyond it is refused with 503 and Retry-After (Sendbird retries). Zero turns it off.
    public var maxBacklog: Duration
    /// A push a provider answered "later" (429, 5xx, no answer) is tried again after this, then
    /// twice as long each time (±50 % jitter), until its expiration.
    public var retryInitialBackoff: Duration
    /// The longest wait between two tries, also for a provider's Retry-After.
    public var retryMaximumBackoff: Duration

    public static let defaultPruneAfter: Duration = .seconds(7 * 86_400)
    public static let defaultShutdownGrace: Duration = .seconds(10)
    public static let defaultMaxBacklog: Duration = .seconds(2)
    public static let defaultRetryInitialBackoff: Duration = .seconds(1)
    public static let defaultRetryMaximumBackoff: Duration = .seconds(300)
    /// Below 100 ms a refusing provider would be asked again at once; above an hour a push
    /// waits longer than most apps' expiration.
    public static let allowedRetryBackoff: ClosedRange<Duration> = .milliseconds(100) ... .seconds(3600)

    public init(
        pruneAfter: Duration = DeliveryConfiguration.defaultPruneAfter,
        shutdownGrace: Duration = DeliveryConfiguration.defaultShutdownGrace,
        maxBacklog: Duration = DeliveryConfiguration.defaultMaxBacklog,
        retryInitialBackoff: Duration = DeliveryConfiguration.defaultRetryInitialBackoff,
        retryMaximumBackoff: Duration = DeliveryConfiguration.defaultRetryMaximumBackoff
    ) {
        self.pruneAfter = pruneAfter
        self.shutdownGrace = shutdownGrace
        self.maxBacklog = maxBacklog
        self.retryInitialBackoff = retryInitialBackoff
        self.retryMaximumBackoff = retryMaximumBackoff
    }
}
