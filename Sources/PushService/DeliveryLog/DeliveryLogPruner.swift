import Logging
import PushStore
import ServiceLifecycle

/// Deletes delivery log entries (events, decisions, finished deliveries and their attempts)
/// older than `maximumAge`, every `interval`. Unfinished deliveries are never pruned.
public struct DeliveryLogPruner: Service {
    let store: any RelayStore
    let maximumAge: Duration
    let interval: Duration
    let clock: @Sendable () -> Int64
    let logger: Logger

    public init(
        store: any RelayStore, maximumAge: Duration = .seconds(7 * 86_400), interval: Duration = .seconds(3600),
        clock: @escaping @Sendable () -> Int64 = WallClock.milliseconds,
        logger: Logger = Logger(label: "DeliveryLogPruner")
    ) {
        self.store = store
        self.maximumAge = maximumAge
        self.interval = interval
        self.clock = clock
        self.logger = logger
    }

    /// One pass; returns how many deliveries were deleted.
    @discardableResult
    public func pruneOnce() async throws -> Int {
        try await store.prune(olderThanMs: clock() - maximumAge.milliseconds)
    }

    public func run() async throws {
        while !Task.isShuttingDownGracefully, !Task.isCancelled {
            do {
                let deleted = try await pruneOnce()
                if deleted > 0 { logger.info("pruned delivery log", metadata: ["deliveries": .stringConvertible(deleted)]) }
            } catch {
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
