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

    public static let defaultPruneAfter: Duration = .seconds(7 * 86_400)
    public static let defaultShutdownGrace: Duration = .seconds(10)
    public static let defaultMaxBacklog: Duration = .seconds(2)

    public init(
        pruneAfter: Duration = DeliveryConfiguration.defaultPruneAfter,
        shutdownGrace: Duration = DeliveryConfiguration.defaultShutdownGrace,
        maxBacklog: Duration = DeliveryConfiguration.defaultMaxBacklog
    ) {
        self.pruneAfter = pruneAfter
        self.shutdownGrace = shutdownGrace
        self.maxBacklog = maxBacklog
    }
}
