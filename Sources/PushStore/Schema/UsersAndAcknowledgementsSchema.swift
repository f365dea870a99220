import GRDB

/// Migration `v6_users_and_acknowledgements`: Sendbird's user API (`POST /v3/users`), erasure,
/// and delivery acknowledgement (`POST /v3/sdk/push_delivery`).
enum UsersAndAcknowledgementsSchema {
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

                -- When the device said it got the push (NULL: not yet, or never).
                ALTER TABLE deliveries ADD COLUMN acknowledged_at_ms INTEGER;
                """)
    }
}
