import Logging
import PushEngine
import PushStore
import StoreContract
import ServiceLifecycle

/// Deletes delivery log entries (events, decisions, finished deliveries and their attempts)
/// older than `maximumAge`, every `interval`. Unfinished deliveries are never pruned. The same
/// pass deletes session tokens no longer usable (expired, past `sessionLifetime`, or revoked with
/// their app's), a batch at a time, and console sessions past their lifetime (every idle one is
/// by then: the idle timeout is at most 24 hours, as long as two lifetimes).
public struct DeliveryLogPruner: Service {
    let store: any RelayStore
    let maximumAge: Duration
    let interval: Duration
    let sessionLifetime: Duration
    /// Sessions deleted per write, so a revocation of a million does not hold the writer.
    static let sessionBatch = 1_000
    /// An expired session is kept this long, so a device presenting it hears "expired"
    /// (400309, on which Sendbird's SDKs ask for a new token), not "invalid".
    static let expiredSessionGraceMs: Int64 = 86_400_000
    let clock: @Sendable () -> Int64
    let logger: Logger

    public init(
        store: any RelayStore, maximumAge: Duration = .seconds(7 * 86_400), interval: Duration = .seconds(3600),
        sessionLifetime: Duration = .seconds(7 * 86_400), clock: @escaping @Sendable () -> Int64 = WallClock.milliseconds,
        logger: Logger = Logger(label: "DeliveryLogPruner")
    ) {
        self.store = store
        self.maximumAge = maximumAge
        self.interval = interval
        self.sessionLifetime = sessionLifetime
        self.clock = clock
        self.logger = logger
    }

    /// One pass; returns how many deliveries were deleted.
    @discardableResult
    public func pruneOnce() async throws -> Int {
        let deleted = try await store.prune(olderThanMs: clock() - maximumAge.milliseconds)
        while try await store.pruneSessionTokens(
            nowMs: clock() - Self.expiredSessionGraceMs, maximumLifetimeMs: sessionLifetime.milliseconds, limit: Self.sessionBatch)
            == Self.sessionBatch
        {}
        let console = ConsoleSessionRules(idleTimeout: ConsoleConfiguration.allowedSessionIdleTimeout.upperBound)
        try await store.pruneConsoleSessions(cutoff: console.cutoff(nowMs: clock()))
        try await store.pruneLiveActivities(nowMs: clock())
        try await store.pruneNotifications(finishedBeforeMs: clock() - maximumAge.milliseconds)
        return deleted
    }

    public func run() async throws {
        while !Task.isShuttingDownGracefully, !Task.isCancelled {
            do {
                let deleted = try await pruneOnce()
                if deleted > 0 { logger.info("pruned delivery log", metadata: ["deliveries": .stringConvertible(deleted)]) }
            } catch {
                // The relay stopping (a port already taken stops it at once) cancels a pass under
                // way: that is no database error.
                if error is CancellationError || Task.isCancelled || Task.isShuttingDownGracefully { return }
                DatabaseErrors.count(.prune)
                logger.error("pruning the delivery log failed", metadata: ["error": "\(store.describe(error))"])
            }
            // Ends early (throws) on graceful shutdown or cancellation.
            do {
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
            } catch {
                return
            }
        }
    }
}
