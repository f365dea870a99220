import PushCore

/// Users' app-wide push preferences and their per-channel trigger options.
public protocol PreferenceStore: Sendable {
    /// Whether anything was ever written for this user of this app.
    func userExists(app: String, user: String) async throws -> Bool

    /// A user's app-wide push preferences: the defaults when none were set; `nil` when the user
    /// is unknown.
    func preferences(app: String, user: String) async throws -> UserPushPreferences?

    /// Reads, changes and writes a user's preferences in one transaction (creating the user), so
    /// concurrent partial updates never lose each other's fields. An error thrown by `change`
    /// rolls back and leaves the stored preferences untouched. Returns them as stored.
    @discardableResult
    func updatePreferences(
        app: String, user: String, _ change: @escaping @Sendable (inout UserPushPreferences) throws -> Void
    ) async throws -> UserPushPreferences

    /// Resets a user's preferences to the defaults. `nil` (and nothing changed) when the user is unknown.
    func resetPreferences(app: String, user: String) async throws -> UserPushPreferences?

    /// A user's preference for one channel: the defaults when none was set; `nil` when the user is unknown.
    func channelPreference(app: String, user: String, channel: String) async throws -> ChannelPushPreference?

    /// Reads, changes and writes a user's preference for one channel in one transaction, creating
    /// the user. A preference equal to the defaults is stored as no row. A new row beyond
    /// `maximumPerUser` rows for the user throws `PushStoreError.limitReached`.
    @discardableResult
    func updateChannelPreference(
        app: String, user: String, channel: String, maximumPerUser: Int,
        _ change: @escaping @Sendable (inout ChannelPushPreference) throws -> Void
    ) async throws -> ChannelPushPreference
}

extension PreferenceStore {
    @discardableResult
    public func updateChannelPreference(
        app: String, user: String, channel: String,
        _ change: @escaping @Sendable (inout ChannelPushPreference) throws -> Void
    ) async throws -> ChannelPushPreference {
        try await updateChannelPreference(app: app, user: user, channel: channel, maximumPerUser: .max, change)
    }
}
