import GRDB

/// Migration `v21_token_configurations`: `device_tokens.configuration` names the app's provider
/// configuration a token belongs to (one of its named APNs configurations; NULL: the default),
/// and the read model's token entries carry it as a fifth element when it is set.
///
/// Four elements stay the form of a token of the default configuration, so the rows written
/// before this migration (all of them the default's) are already right and none is rewritten.
enum TokenConfigurationSchema {
    /// The user's tokens as `push_tokens` holds them since this migration; `app` and `user` are
    /// SQL expressions.
    static func tokens(app: String, user: String) -> String {
        """
        (SELECT json_group_array(CASE WHEN configuration IS NULL THEN json_array(token, registered_at, provider, id)
            ELSE json_array(token, registered_at, provider, id, configuration) END) FROM device_tokens
            WHERE app_id = \(app) AND user_id = \(user))
        """
    }

    static func migrate(_ db: Database) throws {
        let keyChanged = "(OLD.app_id IS NOT NEW.app_id OR OLD.user_id IS NOT NEW.user_id)"
        try db.execute(
            sql: """
                ALTER TABLE device_tokens ADD COLUMN configuration TEXT;
                DROP TRIGGER device_tokens_insert_read_model;
                DROP TRIGGER device_tokens_delete_read_model;
                DROP TRIGGER device_tokens_update_read_model;
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
                """)
    }
}
