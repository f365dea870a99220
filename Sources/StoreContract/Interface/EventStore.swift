/// Accepted webhook events with their decisions and deliveries. The primary key app + message id
/// is the webhook's dedupe: a retried event inserts nothing, whichever relay answered first.
public protocol EventStore: Sendable {
    /// Stores each event with its decisions and deliveries, all in ONE transaction, and returns
    /// for each new event the ids of its deliveries (in the order of `deliveries`), nil for a
    /// duplicate (same app and message id, including one earlier in the same batch).
    /// Concurrent callers should go through `EventCommitter`.
    func commitEvents(_ events: [AcceptedEvent]) async throws -> [[Int64]?]

    /// Whether an event was accepted (and not yet pruned).
    func eventExists(app: String, messageID: Int64) async throws -> Bool

    /// What the store can do for `event`'s commit before it (on the caller's task, off a single
    /// writer): SQLite packs the payloads. Nothing by default.
    func prepareForCommit(_ event: inout AcceptedEvent)
}

extension EventStore {
    public func prepareForCommit(_ event: inout AcceptedEvent) {}

    /// `commitEvents`, saying only whether each event was new.
    public func acceptEvents(_ events: [AcceptedEvent]) async throws -> [Bool] {
        try await commitEvents(events).map { $0 != nil }
    }

    /// One event in its own transaction.
    public func acceptEvent(_ event: AcceptedEvent) async throws -> Bool {
        try await acceptEvents([event])[0]
    }
}
