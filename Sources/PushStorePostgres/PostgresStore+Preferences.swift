import PostgresNIO
import PushCore
import StoreContract

extension PostgresStore {
    /// A user's app-wide push preferences: the defaults when none were set; `nil` when the user
    /// is unknown. One statement: the user and their row from one snapshot.
    public func preferences(app: String, user: String) async throws -> UserPushPreferences? {
        try await withConnection { connection in
            try await connection.rows(
                """
                SELECT \(unescaped: Self.prefixed("p", PreferenceColumns.user)), p.app_id IS NULL AS no_preferences FROM users u
                LEFT JOIN user_push_preferences p ON p.app_id = u.app_id AND p.user_id = u.user_id
                WHERE u.app_id = \(app) AND u.user_id = \(user)
                """, logger: logger
            ) { row in
                let columns = row.makeRandomAccess()
                return try columns["no_preferences"].decode(Bool.self) ? .defaults : try PreferenceColumns.userPreferences(columns)
            }.first
        }
    }

    /// Reads, changes and writes a user's preferences in one transaction (creating the user), so
    /// concurrent partial updates never lose each other's fields: the user's lock serialises
    /// them. An error thrown by `change` rolls back and leaves the stored preferences untouched.
    /// - Returns: the preferences as stored.
    @discardableResult
    public func updatePreferences(
        app: String,
        user: String,
        _ change: @escaping @Sendable (inout UserPushPreferences) throws -> Void
    ) async throws -> UserPushPreferences {
        let now = clock()
        return try await registryWrite(app: app) { connection in
            try await Self.lockAndEnsureUser(connection, app: app, user: user, now: now, logger: logger)
            var preferences =
                try await connection.rows(
                    """
                    SELECT \(unescaped: PreferenceColumns.user) FROM user_push_preferences WHERE app_id = \(app) AND user_id = \(user)
                    """, logger: logger, PreferenceColumns.userPreferences
                ).first ?? .defaults
            try change(&preferences)
            try await connection.run(try PreferenceColumns.upsertUser(app: app, user: user, preferences), logger: logger)
            return preferences
        }
    }

    /// Resets a user's preferences to `UserPushPreferences.defaults`. Returns `nil` (and changes
    /// nothing) when the user is unknown: an unknown user has no row to delete.
    public func resetPreferences(app: String, user: String) async throws -> UserPushPreferences? {
        try await registryWrite(app: app) { connection in
            let known = try await connection.value(
                """
                WITH reset AS (DELETE FROM user_push_preferences WHERE app_id = \(app) AND user_id = \(user))
                SELECT EXISTS (SELECT 1 FROM users WHERE app_id = \(app) AND user_id = \(user))
                """, as: Bool.self, logger: logger)
            return known == true ? .defaults : nil
        }
    }

    /// A user's preference for one channel: the defaults when none was set; `nil` when the user
    /// is unknown.
    public func channelPreference(app: String, user: String, channel: String) async throws -> ChannelPushPreference? {
        try await withConnection { connection in
            try await connection.rows(
                """
                SELECT \(unescaped: Self.prefixed("c", PreferenceColumns.channel)), c.app_id IS NULL FROM users u
                LEFT JOIN channel_push_preferences c ON c.app_id = u.app_id AND c.user_id = u.user_id AND c.channel_url = \(channel)
                WHERE u.app_id = \(app) AND u.user_id = \(user)
                """, logger: logger
            ) { row in
                try row.makeRandomAccess()[2].decode(Bool.self) ? .defaults : try PreferenceColumns.channelPreference(row)
            }.first
        }
    }

    /// Reads, changes and writes a user's preference for one channel in one transaction, creating
    /// the user, as `ChannelPreferenceWrite` rules; a new row beyond `maximumPerUser` rows for
    /// the user throws `PushStoreError.limitReached`.
    @discardableResult
    public func updateChannelPreference(
        app: String,
        user: String,
        channel: String,
        maximumPerUser: Int,
        _ change: @escaping @Sendable (inout ChannelPushPreference) throws -> Void
    ) async throws -> ChannelPushPreference {
        let now = clock()
        return try await registryWrite(app: app) { connection in
            // Created first (rolled back with everything else if `change` or the limit refuses):
            // the user's lock makes the count below exact.
            try await Self.lockAndEnsureUser(connection, app: app, user: user, now: now, logger: logger)
            let stored =
                try await connection.rows(
                    """
                    SELECT \(unescaped: PreferenceColumns.channel) FROM channel_push_preferences
                    WHERE app_id = \(app) AND user_id = \(user) AND channel_url = \(channel)
                    """, logger: logger, PreferenceColumns.channelPreference
                ).first ?? .defaults
            let (preference, write) = try ChannelPreferenceWrite.applying(change, to: stored)
            if write.addsRow {
                try await write.requireRoom(
                    held: connection.value(
                        "SELECT COUNT(*) FROM channel_push_preferences WHERE app_id = \(app) AND user_id = \(user)", as: Int.self,
                        logger: logger) ?? 0,
                    maximumPerUser: maximumPerUser)
            }
            switch write {
            case .delete:
                try await connection.run(
                    "DELETE FROM channel_push_preferences WHERE app_id = \(app) AND user_id = \(user) AND channel_url = \(channel)",
                    logger: logger)
            case .insert, .replace:
                try await connection.run(
                    """
                    INSERT INTO channel_push_preferences (app_id, user_id, channel_url, push_trigger_option, push_sound)
                    VALUES (\(app), \(user), \(channel), \(preference.triggerOption.rawValue), \(preference.pushSound))
                    ON CONFLICT (app_id, user_id, channel_url) DO UPDATE
                    SET push_trigger_option = EXCLUDED.push_trigger_option, push_sound = EXCLUDED.push_sound
                    """, logger: logger)
            }
            return preference
        }
    }

    /// `a, b` → `t.a, t.b`.
    static func prefixed(_ table: String, _ columns: String) -> String {
        columns.split(separator: ",").map { "\(table).\($0.drop { $0 == " " })" }.joined(separator: ", ")
    }
}
