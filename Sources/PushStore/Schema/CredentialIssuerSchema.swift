import GRDB
import StoreContract

/// Migration `v14_credential_issuers`: what makes credential state one truth across relays.
///
/// - `session_tokens.issuer`: the hex SHA-256 of the API token that issued the session; a
///   session dies with its issuer (revoking a secondary token, or changing the master one).
///   NULL for sessions issued before this migration, which live out at most the longest
///   session lifetime from their creation.
/// - `session_revocations`: an app's "revoke every session" (sessions created before
///   `revoked_before` are refused), one row per app, read whole into each relay's view.
/// - `relay_secrets`: keys every relay of a fleet shares, e.g. the one session tokens carry a tag
///   of (`SessionTokenFormat`), so a forged token is refused without a database lookup.
enum CredentialIssuerSchema {
    static func migrate(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE session_tokens ADD COLUMN issuer TEXT;
                CREATE INDEX session_tokens_on_issuer ON session_tokens (app_id, issuer) WHERE issuer IS NOT NULL;
                CREATE TABLE session_revocations (
                    app_id TEXT PRIMARY KEY,
                    revoked_before INTEGER NOT NULL
                ) WITHOUT ROWID;
                CREATE TABLE relay_secrets (
                    name TEXT PRIMARY KEY,
                    value BLOB NOT NULL
                ) WITHOUT ROWID;
                """)
    }
}
