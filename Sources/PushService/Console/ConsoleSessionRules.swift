import PushStore
import StoreContract

/// The console sessions' rules, decided without I/O: a session ends after `idleTimeout` without a
/// request or `maximumLifetime` in all; a request is written to the store only when the one
/// recorded is older than `touchInterval` (a page view is not a database write each, and the
/// idle timeout holds to within 5 %); the store keeps at most `maximumSessions`.
struct ConsoleSessionRules: Sendable {
    let idleTimeoutMs: Int64
    let maximumLifetimeMs: Int64
    let maximumSessions: Int
    let touchIntervalMs: Int64

    init(idleTimeout: Duration, maximumLifetime: Duration = .seconds(12 * 3600), maximumSessions: Int = 10_000) {
        idleTimeoutMs = idleTimeout.milliseconds
        maximumLifetimeMs = maximumLifetime.milliseconds
        self.maximumSessions = max(1, maximumSessions)
        touchIntervalMs = max(1_000, min(idleTimeoutMs / 20, 30_000))
    }

    func isLive(_ session: StoredConsoleSession, nowMs: Int64) -> Bool {
        nowMs - session.lastSeenAtMs < idleTimeoutMs && nowMs - session.createdAtMs < maximumLifetimeMs
    }

    /// Whether this request's time is worth writing (the idle clock restarts from it).
    func needsTouch(_ session: StoredConsoleSession, nowMs: Int64) -> Bool {
        nowMs - session.lastSeenAtMs >= touchIntervalMs
    }

    /// The sessions ended at `nowMs`, as the store clears them when full.
    func cutoff(nowMs: Int64) -> ConsoleSessionCutoff {
        ConsoleSessionCutoff(idleByMs: nowMs - idleTimeoutMs, createdByMs: nowMs - maximumLifetimeMs)
    }
}
