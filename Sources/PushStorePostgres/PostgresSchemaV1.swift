import StoreContract

/// Migration `v1_schema`: the whole schema as SQLite's five migrations left it, plus what a fleet
/// needs (delivery leases). Times are Unix ms in `bigint`, strings `text`, digests and payloads
/// `bytea`. Shipped: never edited, only followed by new migrations.
enum PostgresSchemaV1 {
    static let statements: [String] = [
        // A user exists for the relay once something was written for them.
        """
        CREATE TABLE users (
            app_id text NOT NULL,
            user_id text NOT NULL,
            created_at bigint NOT NULL,
            push_template text NOT NULL DEFAULT 'default',
            PRIMARY KEY (app_id, user_id)
        )
        """,
        // `id` orders tokens registered within the same millisecond, so eviction of the oldest is
        // deterministic; a re-registration deletes and re-inserts the row (a newer id).
        """
        CREATE TABLE device_tokens (
            id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            app_id text NOT NULL,
            token text NOT NULL,
            user_id text NOT NULL,
            registered_at bigint NOT NULL,
            UNIQUE (app_id, token),
            FOREIGN KEY (app_id, user_id) REFERENCES users (app_id, user_id) ON DELETE CASCADE
        )
        """,
        "CREATE INDEX device_tokens_on_user ON device_tokens (app_id, user_id, registered_at, id)",
        // No row means the defaults (`UserPushPreferences.defaults`); the schedules and bot ids
        // are JSON text with the store's own keys (`StoredDNDSchedule`), as in SQLite.
        """
        CREATE TABLE user_push_preferences (
            app_id text NOT NULL,
            user_id text NOT NULL,
            push_trigger_option text NOT NULL,
            do_not_disturb boolean NOT NULL,
            start_hour integer NOT NULL,
            start_min integer NOT NULL,
            end_hour integer NOT NULL,
            end_min integer NOT NULL,
            timezone text NOT NULL,
            snooze_enabled boolean NOT NULL,
            snooze_start_ts bigint NOT NULL,
            snooze_end_ts bigint NOT NULL,
            dnd_schedules text NOT NULL,
            push_sound text NOT NULL,
            block_push_from_bots boolean NOT NULL,
            push_blocked_bot_ids text NOT NULL,
            enable_push_for_replies boolean NOT NULL,
            PRIMARY KEY (app_id, user_id),
            FOREIGN KEY (app_id, user_id) REFERENCES users (app_id, user_id) ON DELETE CASCADE
        )
        """,
        // No row means `ChannelPushPreference.defaults`.
        """
        CREATE TABLE channel_push_preferences (
            app_id text NOT NULL,
            user_id text NOT NULL,
            channel_url text NOT NULL,
            push_trigger_option text NOT NULL,
            push_sound text,
            PRIMARY KEY (app_id, user_id, channel_url),
            FOREIGN KEY (app_id, user_id) REFERENCES users (app_id, user_id) ON DELETE CASCADE
        )
        """,
        // No row means the app's configured texts for that template name.
        """
        CREATE TABLE push_message_templates (
            app_id text NOT NULL,
            template_name text NOT NULL,
            mesg text NOT NULL,
            file text NOT NULL,
            admm text NOT NULL,
            PRIMARY KEY (app_id, template_name)
        )
        """,
        // Credentials: SHA-256 digests only, so a copy of the database cannot call the API.
        """
        CREATE TABLE session_tokens (
            token_digest bytea PRIMARY KEY,
            app_id text NOT NULL,
            user_id text NOT NULL,
            created_at bigint NOT NULL,
            expires_at bigint NOT NULL
        )
        """,
        "CREATE INDEX session_tokens_on_user ON session_tokens (app_id, user_id, created_at)",
        """
        CREATE TABLE api_tokens (
            app_id text NOT NULL,
            token_digest bytea NOT NULL,
            token_prefix text NOT NULL,
            created_at bigint NOT NULL,
            PRIMARY KEY (app_id, token_digest)
        )
        """,
        // The primary key is the webhook dedupe, across the fleet: whichever relay inserts first.
        """
        CREATE TABLE events (
            app_id text NOT NULL,
            message_id bigint NOT NULL,
            channel_url text NOT NULL,
            created_at_ms bigint NOT NULL,
            PRIMARY KEY (app_id, message_id)
        )
        """,
        "CREATE INDEX events_on_created ON events (created_at_ms)",
        // Skips only: a pushed member's deliveries say "push".
        """
        CREATE TABLE decisions (
            app_id text NOT NULL,
            message_id bigint NOT NULL,
            user_id text NOT NULL,
            decision text NOT NULL,
            created_at_ms bigint NOT NULL,
            PRIMARY KEY (app_id, message_id, user_id)
        )
        """,
        "CREATE INDEX decisions_on_created ON decisions (created_at_ms)",
        // The queue. `BY DEFAULT`: `commitEvents` takes ids from the sequence itself, to know
        // which id is which delivery's. An in-flight delivery is leased to `lease_owner` (a node
        // id) until `lease_expires_at_ms`; after that any relay may take it over.
        """
        CREATE TABLE deliveries (
            id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            app_id text NOT NULL,
            message_id bigint NOT NULL,
            user_id text NOT NULL,
            device_token text NOT NULL,
            apns_id text NOT NULL,
            push_type text NOT NULL,
            priority integer NOT NULL,
            expires_at_ms bigint NOT NULL,
            state text NOT NULL,
            attempts integer NOT NULL DEFAULT 0,
            next_attempt_at_ms bigint NOT NULL,
            last_status integer,
            last_reason text,
            sent_at_ms bigint,
            created_at_ms bigint NOT NULL,
            updated_at_ms bigint NOT NULL,
            lease_owner text,
            lease_expires_at_ms bigint
        )
        """,
        // Partial indexes over the queue only: sent and failed rows (nearly all) are in neither.
        // Claims take each app's due deliveries (and find the apps by a loose index scan);
        // `nextDueAtMs` reads the earliest; the lease sweep and renewal read the in-flight ones.
        "CREATE INDEX deliveries_due_by_app ON deliveries (app_id, next_attempt_at_ms, id) WHERE state = 'pending'",
        "CREATE INDEX deliveries_due ON deliveries (next_attempt_at_ms) WHERE state = 'pending'",
        "CREATE INDEX deliveries_in_flight ON deliveries (lease_expires_at_ms) WHERE state = 'in_flight'",
        "CREATE INDEX deliveries_on_message ON deliveries (app_id, message_id, user_id)",
        // The per-user listing (`recentDeliveries`). SQLite dropped this index because every push
        // then wrote a random page to its single WAL; PostgreSQL's writes are spread over
        // backends and its buffer pool absorbs them, so here the listing stays exact and cheap.
        "CREATE INDEX deliveries_on_user ON deliveries (app_id, user_id, id)",
        // Pruning walks old deliveries in (created_at_ms, id) order.
        "CREATE INDEX deliveries_on_created ON deliveries (created_at_ms, id)",
        // Payloads (immutable, up to 5 KB) apart, so the row updated on every claim stays small.
        """
        CREATE TABLE delivery_payloads (
            delivery_id bigint PRIMARY KEY,
            payload bytea NOT NULL
        )
        """,
        // `id` orders attempts logged within the same millisecond (SQLite's rowid).
        """
        CREATE TABLE delivery_attempts (
            id bigint GENERATED ALWAYS AS IDENTITY,
            delivery_id bigint NOT NULL REFERENCES deliveries (id) ON DELETE CASCADE,
            at_ms bigint NOT NULL,
            status integer,
            reason text,
            error text,
            apns_id text NOT NULL
        )
        """,
        "CREATE INDEX delivery_attempts_on_delivery ON delivery_attempts (delivery_id, at_ms, id)",
    ]
}
