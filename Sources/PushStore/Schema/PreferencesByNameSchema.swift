import GRDB

/// Migration `v20_preferences_by_name`: `users.push_preferences` holds the user's
/// `user_push_preferences` row as a JSON object keyed by column name (it was an array in table
/// order), read by name through `UserPreferenceColumns`.
///
/// The triggers list the table's columns as they are when `recreate` runs, so a later migration
/// that adds a preference column calls `recreate` after its `ALTER TABLE` and needs no list of
/// its own.
enum PreferencesByNameSchema {
    static func migrate(_ db: Database) throws {
        try recreate(db)
    }

    /// Replaces the preference triggers with ones that copy every current column by name, and
    /// rewrites the copies that exist.
    static func recreate(_ db: Database) throws {
        let columns = try db.columns(in: "user_push_preferences").map(\.name).filter { $0 != "app_id" && $0 != "user_id" }
        func object(_ row: String) -> String {
            "json_object(\(columns.map { "'\($0)', \(row).\($0)" }.joined(separator: ", ")))"
        }
        let keyChanged = "(OLD.app_id IS NOT NEW.app_id OR OLD.user_id IS NOT NEW.user_id)"
        try db.execute(
            sql: """
                DROP TRIGGER IF EXISTS user_push_preferences_insert_read_model;
                DROP TRIGGER IF EXISTS user_push_preferences_update_read_model;
                CREATE TRIGGER user_push_preferences_insert_read_model AFTER INSERT ON user_push_preferences BEGIN
                    UPDATE users SET push_preferences = \(object("NEW"))
                        WHERE app_id = NEW.app_id AND user_id = NEW.user_id;
                END;
                CREATE TRIGGER user_push_preferences_update_read_model AFTER UPDATE ON user_push_preferences BEGIN
                    UPDATE users SET push_preferences = NULL
                        WHERE app_id = OLD.app_id AND user_id = OLD.user_id AND \(keyChanged);
                    UPDATE users SET push_preferences = \(object("NEW"))
                        WHERE app_id = NEW.app_id AND user_id = NEW.user_id;
                END;
                UPDATE users SET push_preferences = (SELECT \(object("p")) FROM user_push_preferences p
                    WHERE p.app_id = users.app_id AND p.user_id = users.user_id)
                WHERE push_preferences IS NOT NULL;
                """)
    }
}
