/// The durable delivery queue: what the dispatcher claims, and what it records.
///
/// Claimed deliveries are `inFlight`. On a shared store several relays claim from one queue;
/// each claim is its own (no delivery is claimed twice while its claimer lives), and a relay that
/// dies leaves its claims to be taken over (`resumeInFlight`, or a lease running out).
public protocol DeliveryQueue: Sendable {
    /// Claims due deliveries app by app: each app gets at most `roomByApp[app]` (an app absent
    /// from it: `defaultRoom`), `limit` in all. Apps are served in turn, starting `rotation` places
    /// into the list of apps with pending deliveries, so when the limit runs out it is a different
    /// app's turn to be cut short each time.
    func claimDue(nowMs: Int64, limit: Int, roomByApp: [String: Int], defaultRoom: Int, rotation: Int) async throws -> DueClaim

    /// When the earliest pending delivery is due; nil when none is pending.
    func nextDueAtMs() async throws -> Int64?

    /// Records outcomes (state, attempt log, token removals) in one transaction. Returns how many
    /// tokens were removed.
    @discardableResult
    func recordOutcomes(_ outcomes: [DeliveryOutcome]) async throws -> Int

    /// Puts deliveries this relay left in flight (a crash) back to pending, same apns-id, same
    /// attempts. Call once at start, before the dispatcher claims anything. Returns how many.
    @discardableResult
    func resumeInFlight() async throws -> Int

    /// Puts in-flight deliveries back to pending, due now (e.g. handed to a dispatcher that had
    /// stopped). Others are left alone.
    func requeue(ids: [Int64]) async throws

    /// Unsent deliveries (pending or in flight) per app. On a shared queue: the pending ones and
    /// this relay's own claims.
    func unsentCountsByApp() async throws -> [String: Int]

    /// Unsent deliveries (pending or in flight) by the second they were created. On a shared
    /// queue: this relay's own claims only.
    func unsentCountsBySecond() async throws -> [Int64: Int]

    /// Deliveries waiting to be sent (pending or in flight).
    func pendingCount() async throws -> Int

    /// Deliveries in each state (for tests and operators).
    func deliveryStateCounts() async throws -> [DeliveryState: Int]

    /// Deletes events, decisions and finished deliveries (with their attempts) created before
    /// `cutoffMs`, in transactions of at most `batch` rows. Unfinished deliveries are kept
    /// whatever their age. Returns how many deliveries were deleted.
    @discardableResult
    func prune(olderThanMs cutoffMs: Int64, batch: Int) async throws -> Int

    /// How often this relay must renew its claims (`renewClaims`), or nil when claims never
    /// expire (one relay alone on its store: SQLite).
    var claimRenewalInterval: Duration? { get }

    /// Extends this relay's claims on `ids`, the deliveries it holds in memory, so no other relay
    /// takes them over while it lives. Only those: a claim it no longer holds (a commit whose
    /// answer was lost, an outcome it could not record) runs out and is taken over. Returns how many.
    @discardableResult
    func renewClaims(ids: [Int64]) async throws -> Int

    /// Whether other relays send from the same queue: then `unsentCountsByApp` includes pushes
    /// other relays finish, and a relay's running count of them must be corrected from the store
    /// now and then.
    var isShared: Bool { get }

    /// How many relays (node ids) are connected to a shared queue now, or nil on a queue of one
    /// relay.
    func connectedNodes() async throws -> Int?
}

extension DeliveryQueue {
    public var claimRenewalInterval: Duration? { nil }

    @discardableResult
    public func renewClaims(ids: [Int64]) async throws -> Int { 0 }

    public var isShared: Bool { false }

    public func connectedNodes() async throws -> Int? { nil }

    /// Up to `limit` due deliveries, oldest due first within each app.
    public func claimDue(nowMs: Int64, limit: Int) async throws -> [DeliveryRecord] {
        try await claimDue(nowMs: nowMs, limit: limit, roomByApp: [:], defaultRoom: limit, rotation: 0).records
    }

    @discardableResult
    public func prune(olderThanMs cutoffMs: Int64) async throws -> Int {
        try await prune(olderThanMs: cutoffMs, batch: 5_000)
    }
}
