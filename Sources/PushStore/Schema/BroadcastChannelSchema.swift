import GRDB

/// Migration `v23_broadcast_channels`: an app's broadcast channels (`BroadcastChannelStore`).
enum BroadcastChannelSchema {
    static func migrate(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE broadcast_channels (
                    app_id TEXT NOT NULL,
                    channel_id TEXT NOT NULL,
                    name TEXT,
                    storage_policy INTEGER NOT NULL,
                    created_at_ms INTEGER NOT NULL,
                    PRIMARY KEY (app_id, channel_id)
                );
                """)
    }
}
