import GRDB
import StoreContract

/// Migration `v8_recipient_read_model`: each `users` row also holds what the webhook reads about
/// that user (tokens, push preferences, whether any channel preference exists), so looking up a
/// recipient is one index probe instead of four or five.
///
/// Why: the webhook reads its recipients right after other commits, and in WAL mode every commit
/// empties a reader's page cache. With a million users nearly every recipient misses
/// `RecipientCache` too, so each probe is a page read from the file; the four tables cost about
/// five leaf pages per user, and at a million users that doubled the webhook's CPU per event
/// (`scripts/bench-costs.sh` curve 1).
///
/// The source of truth stays in `device_tokens`, `user_push_preferences` and
/// `channel_push_preferences`. Triggers keep the copies, so every write (REST, token removal after
/// APNs/FCM answers, erasure, a store copy, a hand-run SQL statement) keeps them right, and there
/// is no code path that could forget to. None of the writers uses `INSERT OR REPLACE`, whose
/// implicit deletes would fire no trigger (recursive triggers are off).
///
/// - `push_tokens`: a JSON array of `[token, registered_at, provider, id]`, in no particular
///   order (the reader sorts by registration, as `device_tokens_on_user` does).
/// - `push_preferences`: NULL for the defaults, else the `user_push_preferences` columns after
///   the key: a JSON array in table order as this migration wrote it, an object keyed by column
///   name since `v20_preferences_by_name` (`UserPreferencesRow.readModel`).
/// - `channel_preference_count`: how many `channel_push_preferences` rows the user has; the webhook
///   reads that table only for users with some.
enum RecipientReadModelSchema {
    /// The user's tokens as `push_tokens` holds them; `app` and `user` are SQL expressions.
    private static func tokens(app: String, user: String) -> String {
        """
        (SELECT json_group_array(json_array(token, registered_at, provider, id)) FROM device_tokens
            WHERE app_id = \(app) AND user_id = \(user))
        """
    }

    /// A `user_push_preferences` row as this migration copied it; `row` is NEW or a table alias.
    private static func preferences(_ row: String) -> String {
        let columns = [
            "push_trigger_option", "do_not_disturb", "start_hour", "start_min", "end_hour", "end_min", "timezone",
            "snooze_enabled", "snooze_start_ts", "snooze_end_ts", "dnd_schedules", "push_sound", "block_push_from_bots",
            "push_blocked_bot_ids", "enable_push_for_replies",
        ]
        return "json_array(\(columns.map { "\(row).\($0)" }.joined(separator: ", ")))"
    }

    /// An UPDATE trigger's row moved to another user (never done today; kept right anyway).
    private static let keyChanged = "(OLD.app_id IS NOT NEW.app_id OR OLD.user_id IS NOT NEW.user_id)"

    static func migrate(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE users ADD COLUMN push_tokens TEXT NOT NULL DEFAULT '[]';
                ALTER TABLE users ADD COLUMN push_preferences TEXT;
                ALTER TABLE users ADD COLUMN channel_preference_count INTEGER NOT NULL DEFAULT 0;

                CREATE TRIGGER device_tokens_insert_read_model AFTER INSERT ON device_tokens BEGIN
                    UPDATE users SET push_tokens = \(tokens(app: "NEW.app_id", user: "NEW.user_id"))
                        WHERE app_id = NEW.app_id AND user_id = NEW.user_id;
                END;
                CREATE TRIGGER device_tokens_delete_read_model AFTER DELETE ON device_tokens BEGIN
                    UPDATE users SET push_tokens = \(tokens(app: "OLD.app_id", user: "OLD.user_id"))
                        WHERE app_id = OLD.app_id AND user_id = OLD.user_id;
                END;
                CREATE TRIGGER device_tokens_update_read_model AFTER UPDATE ON device_tokens BEGIN
                    UPDATE users SET push_tokens = \(tokens(app: "OLD.app_id", user: "OLD.user_id"))
                        WHERE app_id = OLD.app_id AND user_id = OLD.user_id AND \(keyChanged);
                    UPDATE users SET push_tokens = \(tokens(app: "NEW.app_id", user: "NEW.user_id"))
                        WHERE app_id = NEW.app_id AND user_id = NEW.user_id;
                END;

                CREATE TRIGGER user_push_preferences_insert_read_model AFTER INSERT ON user_push_preferences BEGIN
                    UPDATE users SET push_preferences = \(preferences("NEW"))
                        WHERE app_id = NEW.app_id AND user_id = NEW.user_id;
                END;
                CREATE TRIGGER user_push_preferences_delete_read_model AFTER DELETE ON user_push_preferences BEGIN
                    UPDATE users SET push_preferences = NULL WHERE app_id = OLD.app_id AND user_id = OLD.user_id;
                END;
                CREATE TRIGGER user_push_preferences_update_read_model AFTER UPDATE ON user_push_preferences BEGIN
                    UPDATE users SET push_preferences = NULL
                        WHERE app_id = OLD.app_id AND user_id = OLD.user_id AND \(keyChanged);
                    UPDATE users SET push_preferences = \(preferences("NEW"))
                        WHERE app_id = NEW.app_id AND user_id = NEW.user_id;
                END;

                CREATE TRIGGER channel_push_preferences_insert_read_model AFTER INSERT ON channel_push_preferences BEGIN
                    UPDATE users SET channel_preference_count = channel_preference_count + 1
                        WHERE app_id = NEW.app_id AND user_id = NEW.user_id;
                END;
                CREATE TRIGGER channel_push_preferences_delete_read_model AFTER DELETE ON channel_push_preferences BEGIN
                    UPDATE users SET channel_preference_count = channel_preference_count - 1
                        WHERE app_id = OLD.app_id AND user_id = OLD.user_id;
                END;
                CREATE TRIGGER channel_push_preferences_update_read_model AFTER UPDATE OF app_id, user_id ON channel_push_preferences
                WHEN \(keyChanged) BEGIN
                    UPDATE users SET channel_preference_count = channel_preference_count - 1
                        WHERE app_id = OLD.app_id AND user_id = OLD.user_id;
                    UPDATE users SET channel_preference_count = channel_preference_count + 1
                        WHERE app_id = NEW.app_id AND user_id = NEW.user_id;
                END;

                -- What existed before this migration.
                UPDATE users SET
                    push_tokens = \(tokens(app: "users.app_id", user: "users.user_id")),
                    push_preferences = (SELECT \(preferences("p")) FROM user_push_preferences p
                        WHERE p.app_id = users.app_id AND p.user_id = users.user_id),
                    channel_preference_count = (SELECT count(*) FROM channel_push_preferences c
                        WHERE c.app_id = users.app_id AND c.user_id = users.user_id);
                """)
    }
}
