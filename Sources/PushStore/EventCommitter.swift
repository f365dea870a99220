import Synchronization

/// Group commit for webhook events: callers arriving while a write transaction runs wait and are
/// committed together in the next one, so N concurrent webhooks cost about one fsync, not N.
/// Each caller is resumed only after the transaction holding its event has committed.
public final class EventCommitter: Sendable {
    private typealias Waiter = (event: AcceptedEvent, continuation: CheckedContinuation<[Int64]?, any Error>)

    private struct State {
        var pending: [Waiter] = []
        var writing = false
    }

    private let store: any EventStore
    /// Most events per transaction.
    private let maximumBatch: Int
    /// Most rows (events, decisions, deliveries, payloads) per transaction, beyond the first
    /// event. SQLite has one writer: the dispatcher's claims and outcome records wait for the
    /// commit in progress, so a commit stays bounded however large the events are (1,024
    /// 100-member events would be 266,000 rows in one transaction). 16,384 measured better than
    /// 4,096 for 10- and 100-member events alike (`bench-compare.sh`, 2026-11-23).
    private let maximumRows: Int
    private let state = Mutex(State())

    public init(store: any EventStore, maximumBatch: Int = 1024, maximumRows: Int = 16384) {
        self.store = store
        self.maximumBatch = max(1, maximumBatch)
        self.maximumRows = max(1, maximumRows)
    }

    /// Commits `event` (possibly with others) and returns whether it was new (false: duplicate).
    public func accept(_ event: AcceptedEvent) async throws -> Bool {
        try await commit(event) != nil
    }

    /// Commits `event` (possibly with others) and returns its delivery ids, or nil for a duplicate.
    public func commit(_ event: AcceptedEvent) async throws -> [Int64]? {
        try await withCheckedThrowingContinuation { continuation in
            let startWriter = state.withLock { state in
                state.pending.append((event, continuation))
                guard !state.writing else { return false }
                state.writing = true
                return true
            }
            if startWriter {
                Task { await self.drain() }
            }
        }
    }

    /// Writes batches until nobody is waiting. Exactly one drain runs at a time (`writing`).
    private func drain() async {
        while true {
            let batch: [Waiter] = state.withLock { state in
                guard !state.pending.isEmpty else {
                    state.writing = false
                    return []
                }
                var count = 0, rows = 0
                for waiter in state.pending.prefix(maximumBatch) {
                    // At most: a pushed member stores no decision row.
                    let eventRows = 1 + waiter.event.decisions.count + 2 * waiter.event.deliveries.count
                    if count > 0, rows + eventRows > maximumRows { break }
                    count += 1
                    rows += eventRows
                }
                let batch = Array(state.pending.prefix(count))
                state.pending.removeFirst(count)
                return batch
            }
            if batch.isEmpty { return }
            do {
                let results = try await store.commitEvents(batch.map(\.event))
                for (waiter, ids) in zip(batch, results) { waiter.continuation.resume(returning: ids) }
            } catch {
                for waiter in batch { waiter.continuation.resume(throwing: error) }
            }
        }
    }
}
