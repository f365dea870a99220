/// "Revoke every session of the app" decided by what the database holds, not by relays' clocks:
/// a fleet's relays stamp sessions with their own clocks, and one running ahead issued sessions
/// "after" a revocation another relay stamped, which then survived it. Both stores apply these
/// in the transaction that writes.
public enum SessionRevocationOrder {
    /// The revocation instant in force: the asking relay's now, and past every session stored (so
    /// none issued before the answer survives, whichever clock stamped it), and never earlier than
    /// a previous revocation.
    public static func revokedBefore(nowMs: Int64, newestSessionMs: Int64?, previousMs: Int64?) -> Int64 {
        max(nowMs, (newestSessionMs ?? .min) + 1, previousMs ?? .min)
    }

    /// A new session's creation instant: the issuing relay's now, but never before the app's
    /// revocation (a session issued after it must not be taken by it).
    public static func createdAt(nowMs: Int64, revokedBeforeMs: Int64?) -> Int64 {
        max(nowMs, revokedBeforeMs ?? .min)
    }
}
