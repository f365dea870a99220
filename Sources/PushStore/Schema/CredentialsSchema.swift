import GRDB
import StoreContract

/// Migration `v4_credentials`: session tokens (per user) and secondary API tokens (per app).
///
/// Only SHA-256 digests of the tokens are stored: a copy of the database (a backup, a stolen
/// disk) must not let anyone call the API. The tokens have 256 random bits, so an unsalted fast
/// hash is enough; there is nothing to guess.
enum CredentialsSchema {
    static func create(_ db: Database) throws {
        try db.execute(
            sql: """
                -- Looked up by digest alone on every request that carries a `Session-Token` (the
                -- primary key); the row says which app and user the token speaks for.
                CREATE TABLE session_tokens (
                    token_digest BLOB PRIMARY KEY,
                    app_id TEXT NOT NULL,
                    user_id TEXT NOT NULL,
                    created_at INTEGER NOT NULL,
                    expires_at INTEGER NOT NULL
                ) WITHOUT ROWID;
                -- Revoking all of a user's tokens, and pruning them when a new one is issued.
                CREATE INDEX session_tokens_on_user ON session_tokens (app_id, user_id, created_at);

                -- Read whole at start into memory (`Api-Token` is checked without the database);
                -- `token_prefix` (the first characters) is all the listing shows.
                CREATE TABLE api_tokens (
                    app_id TEXT NOT NULL,
                    token_digest BLOB NOT NULL,
                    token_prefix TEXT NOT NULL,
                    created_at INTEGER NOT NULL,
                    PRIMARY KEY (app_id, token_digest)
                ) WITHOUT ROWID;
                """)
    }
}
