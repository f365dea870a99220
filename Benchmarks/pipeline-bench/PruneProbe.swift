import Foundation
import PushStore
import StoreContract

/// Prunes a store with the relay's own `prune` (the same transactions of 5,000 deliveries as
/// `DeliveryLogPruner`) while a probe writes a token every 10 ms through the same writer, for
/// `scripts/bench-costs.sh` curve 3. The probe's longest wait is what a webhook commit may wait
/// behind the pruning, measured the way a webhook would meet it rather than timed inside `prune`.
struct PruneProbe {
    var cutoffMs: Int64

    private enum Finished {
        case pruned(deleted: Int, took: Duration)
        case probed(longest: Duration, count: Int)
    }

    /// One JSON line: deliveries deleted, seconds, the probe's longest write, WAL bytes after.
    func run(_ store: SQLiteStore, path: String) async throws -> String {
        var deleted = 0
        var took = Duration.zero
        var longest = Duration.zero
        var probes = 0
        try await withThrowingTaskGroup(of: Finished.self) { group in
            group.addTask {
                let start = ContinuousClock.now
                let deleted = try await store.prune(olderThanMs: cutoffMs)
                return .pruned(deleted: deleted, took: ContinuousClock.now - start)
            }
            group.addTask {
                var longest = Duration.zero
                var count = 0
                while !Task.isCancelled {
                    let began = ContinuousClock.now
                    _ = try await store.registerToken(
                        app: "bench-app", user: "prune-probe", token: String(repeating: "e", count: 63) + String(count % 2),
                        isUnique: false,
                        provider: .apns)
                    longest = max(longest, ContinuousClock.now - began)
                    count += 1
                    try? await Task.sleep(for: .milliseconds(10))
                }
                return .probed(longest: longest, count: count)
            }
            while let finished = try await group.next() {
                switch finished {
                case .pruned(let d, let t):
                    (deleted, took) = (d, t)
                    group.cancelAll()
                case .probed(let l, let c):
                    (longest, probes) = (l, c)
                }
            }
        }
        let seconds = { (d: Duration) in Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18 }
        let wal = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
        return String(
            format: #"{"deleted": %d, "prune_s": %.2f, "longest_transaction_s": %.3f, "probes": %d, "wal_bytes": %d}"#,
            deleted, seconds(took), seconds(longest), probes, wal)
    }
}
