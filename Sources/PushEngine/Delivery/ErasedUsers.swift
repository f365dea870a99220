import PushCore
import Synchronization

/// Users erased lately (`DELETE /v3/users/{id}`), so that pushes for them the dispatcher already
/// holds — handed over by the webhook, or claimed — are dropped instead of sent. The erasure
/// deletes every stored delivery of the user; these are the ones in memory, which the store
/// cannot reach. A push accepted after the erasure (the user back as a member, with a new
/// device) is sent as usual.
///
/// Bounded: entries live `lifetimeMs` (the dispatcher starts what it holds within moments) and
/// at most `maximumEntries` are kept, the oldest dropped first.
public final class ErasedUsers: Sendable {
    private struct Key: Hashable {
        let app: ExactID
        let user: ExactID
    }

    static let lifetimeMs: Int64 = 10 * 60 * 1000
    static let maximumEntries = 10_000

    private let entries = Mutex<[Key: Int64]>([:])
    /// `entries.count`, read without the lock on every send.
    private let count = Atomic<Int>(0)

    public init() {}

    /// `user` of `app` is being erased at `nowMs`.
    public func erasing(app: String, user: String, nowMs: Int64) {
        entries.withLock { entries in
            if entries.count >= Self.maximumEntries {
                entries = entries.filter { nowMs - $0.value < Self.lifetimeMs }
                if entries.count >= Self.maximumEntries, let oldest = entries.min(by: { $0.value < $1.value }) {
                    entries[oldest.key] = nil
                }
            }
            entries[Key(app: ExactID(app), user: ExactID(user))] = nowMs
            count.store(entries.count, ordering: .relaxed)
        }
    }

    /// Whether a push for `user` of `app`, accepted at `acceptedAtMs`, was for a user erased since.
    public func covers(app: String, user: String, acceptedAtMs: Int64) -> Bool {
        guard count.load(ordering: .relaxed) > 0 else { return false }
        return entries.withLock { entries in
            guard let erasedAt = entries[Key(app: ExactID(app), user: ExactID(user))] else { return false }
            return acceptedAtMs <= erasedAt
        }
    }
}
