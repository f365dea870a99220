import GRDB
import PushCore
import StoreContract

extension SQLiteStore {
    /// A user's app-wide push preferences: the defaults when none were set; `nil` when the user
    /// is unknown.
    public func preferences(app: String, user: String) async throws -> UserPushPreferences? {
        try await pool.read { db in
            guard try Self.userExists(db, app: app, user: user) else { return nil }
            return try Self.preferences(db, app: app, user: user)
        }
    }

    static func preferences(_ db: Database, app: String, user: String) throws -> UserPushPreferences {
        try UserPreferencesRow.fetch(db, app: app, user: user) ?? .defaults
    }

    /// Reads, changes and writes a user's preferences in one transaction (creating the user), so
    /// concurrent partial updates never lose each other's fields. An error thrown by `change`
    /// rolls back and leaves the stored preferences untouched.
    /// - Returns: the preferences as stored.
    @discardableResult
    public func updatePreferences(
        app: String,
        user: String,
        _ change: @escaping @Sendable (inout UserPushPreferences) throws -> Void
    ) async throws -> UserPushPreferences {
        let now = clock()
        return try await registryWrite(app: app) { db in
            try Self.ensureUser(db, app: app, user: user, now: now)
            var preferences = try Self.preferences(db, app: app, user: user)
            try change(&preferences)
            try UserPreferencesRow.save(db, app: app, user: user, preferences)
            return preferences
        }
    }

    /// Resets a user's preferences to `UserPushPreferences.defaults`. Returns `nil` (and changes
    /// nothing) when the user is unknown.
    public func resetPreferences(app: String, user: String) async throws -> UserPushPreferences? {
        try await registryWrite(app: app) { db in
            guard try Self.userExists(db, app: app, user: user) else { return nil }
            try UserPreferencesRow.delete(db, app: app, user: user)
            return .defaults
        }
    }

    /// A user's preference for one channel: the defaults when none was set; `nil` when the user
    /// is unknown.
    public func channelPreference(app: String, user: String, channel: String) async throws -> ChannelPushPreference? {
        try await pool.read { db in
            guard try Self.userExists(db, app: app, user: user) else { return nil }
            return try Self.channelPreference(db, app: app, user: user, channel: channel)
        }
    }

    static func channelPreference(_ db: Database, app: String, user: String, channel: String) throws -> ChannelPushPreference {
        try ChannelPreferenceRecord.fetchOne(db, key: ["app_id": app, "user_id": user, "channel_url": channel])?
            .preference() ?? .defaults
    }

    /// Reads, changes and writes a user's preference for one channel in one transaction,
    /// creating the user, as `ChannelPreferenceWrite` rules; a new row beyond `maximumPerUser`
    /// rows for the user throws `PushStoreError.limitReached`.
    @discardableResult
    public func updateChannelPreference(
        app: String,
        user: String,
        channel: String,
        maximumPerUser: Int,
        _ change: @escaping @Sendable (inout ChannelPushPreference) throws -> Void
    ) async throws -> ChannelPushPreference {
        let now = clock()
        return try await registryWrite(app: app) { db in
            let (preference, write) = try ChannelPreferenceWrite.applying(
                change, to: Self.channelPreference(db, app: app, user: user, channel: channel))
            if write.addsRow {
                try write.requireRoom(
                    held: Int.fetchOne(
                        db, sql: "SELECT COUNT(*) FROM channel_push_preferences WHERE app_id = ? AND user_id = ?",
                        arguments: [app, user]) ?? 0,
                    maximumPerUser: maximumPerUser)
            }
            try Self.ensureUser(db, app: app, user: user, now: now)
            switch write {
            case .delete:
                _ = try ChannelPreferenceRecord.deleteOne(db, key: ["app_id": app, "user_id": user, "channel_url": channel])
            case .insert, .replace:
                try ChannelPreferenceRecord(app: app, user: user, channel: channel, preference: preference).save(db)
            }
            return preference
        }
    }
}
