import Logging
import PostgresNIO
import StoreContract

/// The schema as named migrations, in the spirit of SQLite's (`PushStoreMigrations`): applied
/// names are kept in `pushrelay_migrations`, a migration that has shipped is never edited, only
/// followed by a new one.
///
/// All pending migrations run in ONE transaction under a fleet-wide advisory lock: relays
/// starting at once apply them one after the other (the second finds them applied), and a
/// migration that fails leaves nothing half done (PostgreSQL's DDL is transactional).
enum PostgresMigrations {
    static let all: [(name: String, statements: [String])] = [
        ("v1_schema", PostgresSchemaV1.statements),
        // Sendbird's user API and erasure, badge sync, delivery acknowledgement (SQLite's
        // `v6_users_badges_acks`).
        (
            "v2_users_badges_acks",
            [
                "ALTER TABLE users ADD COLUMN nickname text NOT NULL DEFAULT ''",
                "ALTER TABLE users ADD COLUMN profile_url text NOT NULL DEFAULT ''",
                "ALTER TABLE users ADD COLUMN profile_created_at bigint",
                "ALTER TABLE events ADD COLUMN sender_id text",
                "CREATE INDEX events_on_sender ON events (app_id, sender_id) WHERE sender_id IS NOT NULL",
                "ALTER TABLE deliveries ADD COLUMN acknowledged_at_ms bigint",
                "ALTER TABLE device_tokens ADD COLUMN provider text NOT NULL DEFAULT 'apns'",
                """
                CREATE TABLE badges (
                    app_id text NOT NULL,
                    user_id text NOT NULL,
                    badge bigint NOT NULL,
                    read_at_ms bigint NOT NULL,
                    queued_at_ms bigint NOT NULL,
                    PRIMARY KEY (app_id, user_id)
                )
                """,
            ]
        ),
        // FCM's message names in the delivery log (SQLite's `v7_fcm_message_names`).
        ("v3_fcm_message_names", ["ALTER TABLE deliveries ADD COLUMN message_name text"]),
        // Sessions' issuers, app-wide session revocation, shared keys (SQLite's `v14_credential_issuers`).
        (
            "v4_credential_issuers",
            [
                "ALTER TABLE session_tokens ADD COLUMN issuer text",
                "CREATE INDEX session_tokens_on_issuer ON session_tokens (app_id, issuer) WHERE issuer IS NOT NULL",
                "CREATE TABLE session_revocations (app_id text PRIMARY KEY, revoked_before bigint NOT NULL)",
                "CREATE TABLE relay_secrets (name text PRIMARY KEY, value bytea NOT NULL)",
            ]
        ),
        // Preferred languages and push clicks (SQLite's `v15_reader_parity`).
        (
            "v5_reader_parity",
            [
                "ALTER TABLE users ADD COLUMN preferred_languages text NOT NULL DEFAULT ''",
                "ALTER TABLE deliveries ADD COLUMN clicked_at_ms bigint",
            ]
        ),
        // Test pushes in the delivery log (SQLite's `v16_test_pushes`).
        ("v6_test_pushes", ["ALTER TABLE deliveries ADD COLUMN is_test boolean NOT NULL DEFAULT false"]),
        // The console's sessions, shared by the fleet (SQLite's `v17_console_sessions`).
        (
            "v7_console_sessions",
            [
                """
                CREATE TABLE console_sessions (
                    key bytea PRIMARY KEY,
                    identity_kind text NOT NULL,
                    identity_name text NOT NULL,
                    token_digest bytea,
                    app_id text NOT NULL,
                    csrf_token text NOT NULL,
                    created_at_ms bigint NOT NULL,
                    last_seen_at_ms bigint NOT NULL
                )
                """,
                "CREATE INDEX console_sessions_by_identity ON console_sessions (identity_kind, identity_name, last_seen_at_ms)",
            ]
        ),
        // A user's skips by user, as their deliveries are (`deliveries_on_user`): the per-user lists
        // and an erasure cost what they find (SQLite's `v18_per_app_log` bounds them per app instead:
        // its single writer pays for every random page). Built while the migration holds the
        // table: minutes on a log of tens of millions of skips.
        ("v8_per_app_log", ["CREATE INDEX decisions_on_user ON decisions (app_id, user_id, created_at_ms)"]),
        // A delivery names its provider (SQLite's `v19_delivery_provider`). Additive, as a fleet's roll
        // needs: a relay of the previous release still inserts rows without it (read by
        // `LegacyDeliveryProvider`), and still names the push id `apns_id`, the column's name until
        // the release after this one renames it.
        (
            "v9_delivery_provider",
            [
                "ALTER TABLE deliveries ADD COLUMN provider text",
                "UPDATE deliveries SET provider = CASE WHEN push_type IN ('fcm', 'hms') THEN push_type ELSE 'apns' END",
            ]
        ),
        // The app's provider configuration a token belongs to (SQLite's `v21_token_configurations`).
        ("v10_token_configurations", ["ALTER TABLE device_tokens ADD COLUMN configuration text"]),
        // Live Activities' tokens and activities (SQLite's `v22_live_activities`).
        (
            "v11_live_activities",
            [
                """
                CREATE TABLE live_activity_start_tokens (
                    app_id text NOT NULL,
                    token text NOT NULL,
                    user_id text NOT NULL,
                    attributes_type text NOT NULL,
                    registered_at bigint NOT NULL,
                    PRIMARY KEY (app_id, token)
                )
                """,
                """
                CREATE INDEX live_activity_start_tokens_on_user
                    ON live_activity_start_tokens (app_id, user_id, attributes_type, registered_at)
                """,
                """
                CREATE TABLE live_activities (
                    app_id text NOT NULL,
                    activity_id text NOT NULL,
                    user_id text NOT NULL,
                    attributes_type text,
                    update_token text,
                    token_registered_at bigint,
                    state text NOT NULL,
                    high_priority_pushes bigint NOT NULL DEFAULT 0,
                    created_at_ms bigint NOT NULL,
                    updated_at_ms bigint NOT NULL,
                    ended_at_ms bigint,
                    remove_at_ms bigint,
                    PRIMARY KEY (app_id, activity_id)
                )
                """,
                "CREATE INDEX live_activities_on_user ON live_activities (app_id, user_id, created_at_ms)",
                "CREATE INDEX live_activities_on_token ON live_activities (app_id, update_token) WHERE update_token IS NOT NULL",
                "CREATE INDEX live_activities_to_remove ON live_activities (remove_at_ms) WHERE remove_at_ms IS NOT NULL",
            ]
        ),
        // Broadcast channels (SQLite's `v23_broadcast_channels`).
        (
            "v12_broadcast_channels",
            [
                """
                CREATE TABLE broadcast_channels (
                    app_id text NOT NULL,
                    channel_id text NOT NULL,
                    name text,
                    storage_policy bigint NOT NULL,
                    created_at_ms bigint NOT NULL,
                    PRIMARY KEY (app_id, channel_id)
                )
                """
            ]
        ),
        // Notifications of the app's server, the users of a local-time one noted with their times,
        // and topic subscriptions (SQLite's `v24_notifications`, `PostgresNotificationSchema`).
        ("v13_notifications", PostgresNotificationSchema.statements),
    ]

    /// Applies the pending migrations on `connection`, which the caller closes if this throws.
    static func migrate(_ connection: PostgresConnection, clock: () -> Int64, logger: Logger) async throws {
        // No ROLLBACK on failure: the caller closes the connection, which ends the transaction
        // too, even on a connection that failed.
        try await connection.run("BEGIN", logger: logger)
        try await connection.run(
            "SELECT pg_advisory_xact_lock(\(AdvisoryLock.jobClass), \(AdvisoryLock.migrations))", logger: logger)
        try await connection.run(
            "CREATE TABLE IF NOT EXISTS pushrelay_migrations (name text PRIMARY KEY, applied_at_ms bigint NOT NULL)",
            logger: logger)
        let applied = Set(try await connection.rows("SELECT name FROM pushrelay_migrations", logger: logger) { try $0.decode(String.self) })
        for migration in all where !applied.contains(migration.name) {
            logger.debug("applying migration", metadata: ["migration": "\(migration.name)"])
            for statement in migration.statements {
                try await connection.run(PostgresQuery(unsafeSQL: statement), logger: logger)
            }
            try await connection.run(
                "INSERT INTO pushrelay_migrations (name, applied_at_ms) VALUES (\(migration.name), \(clock()))", logger: logger)
        }
        try await connection.run("COMMIT", logger: logger)
    }

    /// Applied names in the order of `all`; names this version does not know (a newer relay's)
    /// follow by name.
    static func applied(_ connection: PostgresConnection, logger: Logger) async throws -> [String] {
        let names = try await connection.rows("SELECT name FROM pushrelay_migrations ORDER BY name", logger: logger) {
            try $0.decode(String.self)
        }
        let known = all.map(\.name)
        return known.filter(names.contains) + names.filter { !known.contains($0) }
    }
}
