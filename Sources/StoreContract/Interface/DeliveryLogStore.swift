/// What happened to each message for each user, as the delivery-log API shows it.
public protocol DeliveryLogStore: Sendable {
    /// The decision and each delivery with its attempts, from one read. Only skips are stored as
    /// decisions; deliveries mean "push".
    func deliveryLog(app: String, messageID: Int64, user: String) async throws -> MessageDeliveryLog

    /// A user's most recent deliveries, newest first, with their attempts. Implementations may
    /// bound how far back they look, within the user's app (`PerAppLogWindow`): another app's
    /// volume never adds to the cost.
    func recentDeliveries(app: String, user: String, limit: Int) async throws -> [LoggedDelivery]

    /// A user's most recent skipped messages, newest first. Implementations may bound how far back
    /// they look, within the user's app (SQLite's `PerAppLogWindow`: any index on skips costs its
    /// single writer on every webhook: `PerAppLogSchema`).
    func recentSkips(app: String, user: String, limit: Int) async throws -> [SkippedMessage]

    /// The delivery with this id, with its attempts.
    func delivery(id: Int64) async throws -> LoggedDelivery?

    /// Records that the devices got these deliveries, at `atMs`, for those not acknowledged yet;
    /// returns the ones acknowledged now (a device that says it twice counts once).
    func acknowledge(ids: [Int64], atMs: Int64) async throws -> [Int64]

    /// Records that the user opened these pushes (tapped the notification), at `atMs`, for those
    /// not clicked yet; a clicked push was delivered, so one not acknowledged yet is acknowledged
    /// at the same time. Returns the ones clicked now (a second click counts once, as with
    /// acknowledgements).
    func recordClicks(ids: [Int64], atMs: Int64) async throws -> [Int64]

    /// Logs a test push that was sent (`TestDelivery`): one delivery in its final state, marked as
    /// a test, with its attempt and payload; never in the queue. A dead token is removed by its
    /// `tokenRemoval` rule in the same transaction, as `recordOutcomes` removes one (a registry
    /// write of the app: caches forget it, a fleet hears of it).
    func recordTestDelivery(_ test: TestDelivery) async throws -> TestDeliveryRecorded
}
