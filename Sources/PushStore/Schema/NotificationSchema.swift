import GRDB

/// Migration `v24_notifications`: notifications of the app's server, the users of a local-time
/// one noted with their times, and topic subscriptions (`NotificationStore`). Ids are never
/// reused (AUTOINCREMENT): a notification's deliveries and decisions carry its id as their message
/// id, and a reused id would mix two notifications' logs.
enum NotificationSchema {
    static func migrate(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE notifications (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    app_id TEXT NOT NULL,
                    state TEXT NOT NULL,
                    audience_kind TEXT NOT NULL,
                    audience TEXT NOT NULL,
                    content TEXT NOT NULL,
                    collapse_key TEXT,
                    send_at_ms INTEGER NOT NULL,
                    local_minute INTEGER,
                    pushes_per_minute INTEGER,
                    idempotency_key TEXT,
                    request_hash TEXT,
                    phase TEXT NOT NULL,
                    cursor TEXT,
                    planned_users INTEGER NOT NULL DEFAULT 0,
                    next_run_at_ms INTEGER NOT NULL,
                    lease_owner TEXT,
                    lease_until_ms INTEGER NOT NULL DEFAULT 0,
                    created_at_ms INTEGER NOT NULL,
                    finished_at_ms INTEGER
                );
                CREATE UNIQUE INDEX notifications_by_key ON notifications (app_id, idempotency_key)
                    WHERE idempotency_key IS NOT NULL;
                CREATE INDEX notifications_by_app ON notifications (app_id, id);
                CREATE INDEX notifications_open ON notifications (next_run_at_ms) WHERE state IN ('scheduled', 'sending');
                CREATE TABLE notification_recipients (
                    notification_id INTEGER NOT NULL,
                    due_at_ms INTEGER NOT NULL,
                    user_id TEXT NOT NULL,
                    app_id TEXT NOT NULL,
                    PRIMARY KEY (notification_id, due_at_ms, user_id)
                ) WITHOUT ROWID;
                CREATE INDEX notification_recipients_by_user ON notification_recipients (app_id, user_id);
                CREATE TABLE topic_subscriptions (
                    app_id TEXT NOT NULL,
                    topic TEXT NOT NULL,
                    user_id TEXT NOT NULL,
                    created_at_ms INTEGER NOT NULL,
                    PRIMARY KEY (app_id, topic, user_id)
                ) WITHOUT ROWID;
                CREATE INDEX topic_subscriptions_by_user ON topic_subscriptions (app_id, user_id);
                """)
    }
}
