import GRDB
import StoreContract

/// Migration `v6_users_badges_acks`: Sendbird's user API (`POST /v3/users`) and erasure, badge
/// sync (`badge_sync`), delivery acknowledgement (`POST /v3/sdk/push_delivery`), and FCM tokens
/// beside APNs ones (`device_tokens.provider`).
enum UsersBadgesAcksSchema {
    static func migrate(_ db: Database) throws {
        try db.execute(
            sql: """
                -- A profile, once created through the user API; NULL `profile_created_at` is a
                -- user the relay only knows from tokens or preferences written for them.
                ALTER TABLE users ADD COLUMN nickname TEXT NOT NULL DEFAULT '';
                ALTER TABLE users ADD COLUMN profile_url TEXT NOT NULL DEFAULT '';
                ALTER TABLE users ADD COLUMN profile_created_at INTEGER;

                -- Who sent an event: erasing a user finds the payloads naming them as the sender.
                -- Partial, so events without a sender (admin messages) cost no index entry.
                ALTER TABLE events ADD COLUMN sender_id TEXT;
                CREATE INDEX events_on_sender ON events (app_id, sender_id) WHERE sender_id IS NOT NULL;

                -- Which service a device token's pushes go to: 'apns' or 'fcm'.
                ALTER TABLE device_tokens ADD COLUMN provider TEXT NOT NULL DEFAULT 'apns';

                -- When the device said it got the push (NULL: not yet, or never).
                ALTER TABLE deliveries ADD COLUMN acknowledged_at_ms INTEGER;

                -- badge_sync: per user, the badge last sent or queued (a message push's count
                -- too), the read it came from (a later read wins), and when the last badge push
                -- was queued (the next waits out the interval).
                CREATE TABLE badges (
                    app_id TEXT NOT NULL,
                    user_id TEXT NOT NULL,
                    badge INTEGER NOT NULL,
                    read_at_ms INTEGER NOT NULL,
                    queued_at_ms INTEGER NOT NULL,
                    PRIMARY KEY (app_id, user_id)
                ) WITHOUT ROWID;
                """)
    }
}
