import GRDB
import StoreContract

/// Migration `v17_console_sessions`: the console's sessions, by the SHA-256 of their cookie
/// (`ConsoleSessionStore`). `console_sessions_by_identity` finds the share of the identity
/// holding the most when the table is full.
enum ConsoleSessionSchema {
    static func migrate(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE console_sessions (
                    key BLOB PRIMARY KEY,
                    identity_kind TEXT NOT NULL,
                    identity_name TEXT NOT NULL,
                    token_digest BLOB,
                    app_id TEXT NOT NULL,
                    csrf_token TEXT NOT NULL,
                    created_at_ms INTEGER NOT NULL,
                    last_seen_at_ms INTEGER NOT NULL
                ) WITHOUT ROWID;
                CREATE INDEX console_sessions_by_identity ON console_sessions (identity_kind, identity_name, last_seen_at_ms);
                """)
    }
}
