import StoreContract
import Synchronization

/// Group commit for webhook events: callers arriving while a write transaction runs wait and are
/// committed together in the next one, so N concurrent webhooks cost about one fsync, not N.
/// Each caller is resumed only after the transaction holding its event has committed.
///
/// Leader and followers: a caller that finds no transaction running writes one itself, with its
/// own event first and whatever else is waiting; when it is done it hands the lead to the first
/// caller that arrived meanwhile, whose transaction then holds everyone waiting by then. No task
/// runs the writes: a writer task started per quiet-time commit, and resumed each caller from
/// there, cost two thread wake-ups per event more on a relay that is not busy. A leader's task
/// cancelled mid-write (only a forced stop cancels request handlers) fails its followers too:
/// none of them was answered 200, so the sender retries them.
public final class EventCommitter: Sendable {
    /// What a waiting caller is resumed with: its delivery ids (nil: a duplicate), or the lead.
    private enum Turn {
        case committed([Int64]?)
        case lead
    }
    private typealias Waiter = (event: AcceptedEvent, continuation: CheckedContinuation<Turn, any Error>)

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
        let leads = state.withLock { state in
            guard state.writing else {
                state.writing = true
                return true
            }
            return false
        }
        if !leads {
            let turn = try await withCheckedThrowingContinuation { continuation in
                // The lead may have passed on since: then this caller leads after all.
                let leadsNow = state.withLock { state in
                    guard state.writing else {
                        state.writing = true
                        return true
                    }
                    state.pending.append((event, continuation))
                    return false
                }
                if leadsNow { continuation.resume(returning: .lead) }
            }
            if case .committed(let ids) = turn { return ids }
        }
        return try await lead(event)
    }

    /// Writes one transaction holding `event` and the callers waiting now (up to the limits),
    /// then hands the lead to the first caller left waiting, if any.
    private func lead(_ event: AcceptedEvent) async throws -> [Int64]? {
        let followers: [Waiter] = state.withLock { state in
            var count = 0
            var rows = Self.rows(of: event)
            for waiter in state.pending.prefix(maximumBatch - 1) {
                let eventRows = Self.rows(of: waiter.event)
                if rows + eventRows > maximumRows { break }
                count += 1
                rows += eventRows
            }
            let followers = Array(state.pending.prefix(count))
            state.pending.removeFirst(count)
            return followers
        }
        let result: Result<[[Int64]?], any Error>
        do {
            result = .success(try await store.commitEvents([event] + followers.map(\.event)))
        } catch {
            result = .failure(error)
        }
        let next: Waiter? = state.withLock { state in
            guard !state.pending.isEmpty else {
                state.writing = false
                return nil
            }
            return state.pending.removeFirst()
        }
        next?.continuation.resume(returning: .lead)
        switch result {
        case .success(let ids):
            for (waiter, ids) in zip(followers, ids.dropFirst()) { waiter.continuation.resume(returning: .committed(ids)) }
            return ids.first ?? nil
        case .failure(let error):
            for waiter in followers { waiter.continuation.resume(throwing: error) }
            throw error
        }
    }

    /// At most: a pushed member stores no decision row.
    private static func rows(of event: AcceptedEvent) -> Int {
        1 + event.decisions.count + 2 * event.deliveries.count
    }
}
