import Metrics
import PushEngine
import PushStore
import StoreContract
import Synchronization

/// The database's writability as `GET /ready` reports it: the result of the last
/// `RelayStore.checkWritable`, at most `maximumAge` old. A request never runs a check of its own: a stale result
/// starts one refresh in the background (one at a time) and is answered as it is, so a flood of
/// unauthenticated probes costs the database at most one check per `maximumAge`, not a
/// connection and a write lock each. Only the very first requests wait, for the first check.
public final class DatabaseReadiness: Sendable {
    public static let defaultMaximumAge: Duration = .seconds(1)

    private struct State {
        var result: String??
        var checkedAt: ContinuousClock.Instant?
        var refresh: Task<String?, Never>?
    }

    private let check: @Sendable () async -> String?
    private let maximumAge: Duration
    private let metrics: any MetricsFactory
    private let state = Mutex(State())

    /// - Parameters:
    ///   - check: nil when writable, else what went wrong.
    ///   - metrics: where a failed check counts as a `readiness` database error.
    public init(
        maximumAge: Duration = DatabaseReadiness.defaultMaximumAge, metrics: any MetricsFactory = MetricsSystem.factory,
        check: @escaping @Sendable () async -> String?
    ) {
        self.check = check
        self.maximumAge = maximumAge
        self.metrics = metrics
    }

    /// nil when writable, else what went wrong (as `RelayStore.checkWritable`).
    public func current() async -> String? {
        let now = ContinuousClock.now
        let (cached, pending): (String??, Task<String?, Never>?) = state.withLock { state in
            let stale = state.checkedAt.map { now - $0 >= maximumAge } ?? true
            if stale, state.refresh == nil {
                let check = self.check
                state.refresh = Task { [weak self] in
                    let result = await check()
                    self?.finish(result)
                    return result
                }
            }
            return (state.result, state.refresh)
        }
        if let cached { return cached }
        // No result yet: wait for the first check rather than guess.
        return await pending?.value ?? nil
    }

    private func finish(_ result: String?) {
        if result != nil { DatabaseErrors.count(.readiness, factory: metrics) }
        state.withLock { state in
            state.result = .some(result)
            state.checkedAt = .now
            state.refresh = nil
        }
    }
}
