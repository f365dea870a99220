import Synchronization

/// At most one log line per key and interval; the lines held back are counted and reported by
/// the next one. Used for requests refused before their signature is checked, so a flood of
/// junk cannot flood the journal (journald drops a service's lines beyond its rate limit, the
/// useful ones included). Keys must come from a small fixed set.
final class LogThrottle: Sendable {
    private let intervalMs: Int64
    private let state = Mutex<[String: (lastMs: Int64, heldBack: Int)]>([:])

    init(interval: Duration) {
        intervalMs = interval.milliseconds
    }

    /// Whether a line for `key` may be written at `nowMs`, and how many were held back since the
    /// last one; nil when this one is held back.
    func admit(_ key: String, nowMs: Int64) -> Int? {
        state.withLock { entries in
            if let entry = entries[key], nowMs - entry.lastMs < intervalMs {
                entries[key] = (entry.lastMs, entry.heldBack + 1)
                return nil
            }
            let heldBack = entries[key]?.heldBack ?? 0
            entries[key] = (nowMs, 0)
            return heldBack
        }
    }
}
