import Synchronization

/// The deliveries a relay on a shared store holds in memory (handed off by the webhook or
/// claimed, not yet recorded): exactly the claims it renews. A claim the relay does not hold —
/// committed while the commit's answer was lost, or whose outcome could not be recorded — is
/// left to run out, and another relay (or this one) takes it over, instead of being renewed
/// until a restart.
final class HeldClaims: Sendable {
    /// Counted, not a set: a retry recorded as pending can be claimed again before the write
    /// that recorded it releases it, and that release must not drop the new claim.
    private let holds = Mutex([Int64: Int]())

    func hold<S: Sequence>(_ ids: S) where S.Element == Int64 {
        holds.withLock { holds in
            for id in ids { holds[id, default: 0] += 1 }
        }
    }

    func release<S: Sequence>(_ ids: S) where S.Element == Int64 {
        holds.withLock { holds in
            for id in ids {
                guard let count = holds[id] else { continue }
                holds[id] = count > 1 ? count - 1 : nil
            }
        }
    }

    var ids: [Int64] { holds.withLock { Array($0.keys) } }

    var count: Int { holds.withLock { $0.count } }
}
