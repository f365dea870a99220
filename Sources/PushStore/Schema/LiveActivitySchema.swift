import GRDB

/// Migration `v22_live_activities`: users' push-to-start tokens per `ActivityAttributes` type,
/// and Live Activities by the app's id with their update tokens (`LiveActivityStore`). No foreign
/// key to `users`: erasure names both tables (`UserErasureScope.userKeyedTables`).
enum LiveActivitySchema {
    static func migrate(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE live_activity_start_tokens (
                    app_id TEXT NOT NULL,
                    token TEXT NOT NULL,
                    user_id TEXT NOT NULL,
                    attributes_type TEXT NOT NULL,
                    registered_at INTEGER NOT NULL,
                    PRIMARY KEY (app_id, token)
                );
                CREATE INDEX live_activity_start_tokens_on_user
                    ON live_activity_start_tokens (app_id, user_id, attributes_type, registered_at);
                CREATE TABLE live_activities (
                    app_id TEXT NOT NULL,
                    activity_id TEXT NOT NULL,
                    user_id TEXT NOT NULL,
                    attributes_type TEXT,
                    update_token TEXT,
                    token_registered_at INTEGER,
                    state TEXT NOT NULL,
                    high_priority_pushes INTEGER NOT NULL DEFAULT 0,
                    created_at_ms INTEGER NOT NULL,
                    updated_at_ms INTEGER NOT NULL,
                    ended_at_ms INTEGER,
                    remove_at_ms INTEGER,
                    PRIMARY KEY (app_id, activity_id)
                );
                CREATE INDEX live_activities_on_user ON live_activities (app_id, user_id, created_at_ms);
                CREATE INDEX live_activities_on_token ON live_activities (app_id, update_token) WHERE update_token IS NOT NULL;
                CREATE INDEX live_activities_to_remove ON live_activities (remove_at_ms) WHERE remove_at_ms IS NOT NULL;
                """)
    }
}
