import GRDB
import StoreContract

/// Migration `v2_events_deliveries`: accepted webhook events (dedupe), every recipient decision,
/// the durable delivery queue and its attempt log.
enum DeliveryQueueSchema {
    static func create(_ db: Database) throws {
        try db.execute(
            sql: """
                -- One row per accepted event: the primary key is the webhook dedupe.
                CREATE TABLE events (
                    app_id TEXT NOT NULL,
                    message_id INTEGER NOT NULL,
                    channel_url TEXT NOT NULL,
                    created_at_ms INTEGER NOT NULL,
                    PRIMARY KEY (app_id, message_id)
                ) WITHOUT ROWID;
                CREATE INDEX events_on_created ON events (created_at_ms);

                -- Every (message, member) skip: a SkipReason code. (Pushed members have deliveries; rows
                -- 'push' were written before 2026-11-23 and read the same.)
                CREATE TABLE decisions (
                    app_id TEXT NOT NULL,
                    message_id INTEGER NOT NULL,
                    user_id TEXT NOT NULL,
                    decision TEXT NOT NULL,
                    created_at_ms INTEGER NOT NULL,
                    PRIMARY KEY (app_id, message_id, user_id)
                ) WITHOUT ROWID;
                CREATE INDEX decisions_on_created ON decisions (created_at_ms);

                -- The queue. `apns_id` is chosen at accept time and reused by every retry.
                CREATE TABLE deliveries (
                    id INTEGER PRIMARY KEY,
                    app_id TEXT NOT NULL,
                    message_id INTEGER NOT NULL,
                    user_id TEXT NOT NULL,
                    device_token TEXT NOT NULL,
                    payload BLOB NOT NULL,
                    apns_id TEXT NOT NULL,
                    push_type TEXT NOT NULL,
                    priority INTEGER NOT NULL,
                    expires_at_ms INTEGER NOT NULL,
                    state TEXT NOT NULL,
                    attempts INTEGER NOT NULL DEFAULT 0,
                    next_attempt_at_ms INTEGER NOT NULL,
                    last_status INTEGER,
                    last_reason TEXT,
                    sent_at_ms INTEGER,
                    created_at_ms INTEGER NOT NULL,
                    updated_at_ms INTEGER NOT NULL
                );
                -- The claim query: due pending deliveries, oldest due first.
                CREATE INDEX deliveries_due ON deliveries (state, next_attempt_at_ms);
                CREATE INDEX deliveries_on_message ON deliveries (app_id, message_id, user_id);
                CREATE INDEX deliveries_on_user ON deliveries (app_id, user_id, created_at_ms);
                CREATE INDEX deliveries_on_created ON deliveries (created_at_ms);

                CREATE TABLE delivery_attempts (
                    delivery_id INTEGER NOT NULL REFERENCES deliveries (id) ON DELETE CASCADE,
                    at_ms INTEGER NOT NULL,
                    status INTEGER,
                    reason TEXT,
                    error TEXT,
                    apns_id TEXT NOT NULL
                );
                CREATE INDEX delivery_attempts_on_delivery ON delivery_attempts (delivery_id, at_ms);
                """)
    }
}
