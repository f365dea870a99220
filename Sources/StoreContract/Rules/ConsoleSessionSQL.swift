/// The console sessions' eviction, one statement both stores run as it is (`ConsoleSessionStore`).
public enum ConsoleSessionSQL {
    /// Deletes the session seen longest ago of the identity holding the most (the first such
    /// identity in byte order on a tie).
    public static let evictFromTheLargestShare = """
        DELETE FROM console_sessions WHERE key = (
            SELECT key FROM console_sessions WHERE (identity_kind, identity_name) = (
                SELECT identity_kind, identity_name FROM console_sessions
                GROUP BY identity_kind, identity_name ORDER BY COUNT(*) DESC, identity_kind, identity_name LIMIT 1)
            ORDER BY last_seen_at_ms, key LIMIT 1)
        """
}
