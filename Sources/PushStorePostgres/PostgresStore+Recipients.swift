import PostgresNIO
import PushCore
import StoreContract

extension PostgresStore {
    /// The push state of several users for one channel, from one statement (one snapshot). Users
    /// the relay has never seen are absent from the result (they have no tokens to push to).
    public func recipientStates(app: String, users: [String], channel: String) async throws -> [ExactID: RecipientPushState] {
        guard !users.isEmpty else { return [:] }
        let entries = try await withConnection { connection in
            try await Self.userEntries(connection, app: app, users: users, logger: logger)
        }
        return RecipientCache.states(entries, channel: channel)
    }

    public var recipientCacheStatistics: RecipientCacheStatistics { recipientCache.statistics }

    /// `recipientStates` and the templates the app changed through the API, as the webhook needs them.
    ///
    /// Served from `RecipientCache` while no registry write of the app has been seen since the
    /// users were last read: this relay's own writes invalidate it at commit, other relays' through
    /// `RegistryListener`, and while that is not listening the cache is not used at all (a
    /// notification could be missed). Otherwise one statement for the missing users (every table
    /// at once) and, when the app's templates are missing too, one for them in the same snapshot.
    public func recipientStatesAndTemplates(
        app: String, users: [String], channel: String
    ) async throws -> (states: [ExactID: RecipientPushState], templates: [PushTemplateName: PushMessageTemplate]) {
        let useCache = registry.isListening
        if !useCache { recipientCache.countBypassed(users.count) }
        let cached =
            useCache
            ? recipientCache.lookUp(app: app, users: users)
            : RecipientCache.Lookup(found: [:], missing: users, templates: nil, version: recipientCache.version(app: app))
        let version = cached.version
        var found = cached.found
        var templates = cached.templates
        if !cached.missing.isEmpty || templates == nil {
            let missingUsers = cached.missing
            let needsTemplates = templates == nil
            let (read, readTemplates) =
                if !missingUsers.isEmpty && needsTemplates {
                    try await transaction(.snapshot) { connection in
                        (
                            try await Self.userEntries(connection, app: app, users: missingUsers, logger: logger),
                            Optional(try await Self.storedMessageTemplates(connection, app: app, logger: logger))
                        )
                    }
                } else {
                    try await withConnection { connection in
                        (
                            missingUsers.isEmpty
                                ? [:] : try await Self.userEntries(connection, app: app, users: missingUsers, logger: logger),
                            needsTemplates ? try await Self.storedMessageTemplates(connection, app: app, logger: logger) : nil
                        )
                    }
                }
            if useCache { recipientCache.store(app: app, users: read, templates: readTemplates, version: version) }
            found.merge(read) { _, new in new }
            templates = templates ?? readTemplates
        }
        return (RecipientCache.states(found, channel: channel), templates ?? [:])
    }

    /// Every one of `users` (unknown ones with a nil state) with their tokens, preferences,
    /// template choice and preferences for all channels: ONE statement, one row per known user,
    /// the tokens and channel preferences aggregated into arrays (by the indexes' order).
    static func userEntries(
        _ connection: PostgresConnection, app: String, users: [String], logger: Logger
    ) async throws -> [ExactID: RecipientCache.UserEntry] {
        var entries: [ExactID: RecipientCache.UserEntry] = [:]
        for user in users { entries[ExactID(user)] = RecipientCache.UserEntry(state: nil, channelPreferences: [:]) }
        let rows = try await connection.rows(
            """
            SELECT \(unescaped: prefixed("p", PreferenceColumns.user)), p.app_id IS NULL AS no_preferences, u.user_id, u.push_template,
                t.tokens, t.registered, c.channels, c.triggers, c.sounds, c.has_sound, t.providers, t.configurations,
                u.preferred_languages
            FROM users u
            LEFT JOIN user_push_preferences p ON p.app_id = u.app_id AND p.user_id = u.user_id
            LEFT JOIN LATERAL (
                SELECT array_agg(token ORDER BY registered_at, id) AS tokens,
                    array_agg(registered_at ORDER BY registered_at, id) AS registered,
                    array_agg(provider ORDER BY registered_at, id) AS providers,
                    array_agg(COALESCE(configuration, '') ORDER BY registered_at, id) AS configurations
                FROM device_tokens WHERE app_id = u.app_id AND user_id = u.user_id
            ) t ON true
            LEFT JOIN LATERAL (
                SELECT array_agg(channel_url) AS channels, array_agg(push_trigger_option) AS triggers,
                    array_agg(COALESCE(push_sound, '')) AS sounds, array_agg(push_sound IS NOT NULL) AS has_sound
                FROM channel_push_preferences WHERE app_id = u.app_id AND user_id = u.user_id
            ) c ON true
            WHERE u.app_id = \(app) AND u.user_id = ANY(\(PostgresArray.text(users)))
            """, logger: logger)
        for row in rows {
            let columns = row.makeRandomAccess()
            let user = try columns["user_id"].decode(String.self)
            let templateName = try templateName(try columns["push_template"].decode(String.self))
            let tokens = try columns["tokens"].decode([String]?.self) ?? []
            let registered = try columns["registered"].decode([Int64]?.self) ?? []
            let providers = try columns["providers"].decode([String]?.self) ?? []
            // '' for the default configuration (an array of text cannot be decoded with NULLs).
            let configurations = try columns["configurations"].decode([String]?.self) ?? []
            // A provider this version does not know (a newer relay's) cannot be delivered to here.
            let known = tokens.indices.compactMap { i -> DeviceToken? in
                guard i < registered.count, i < providers.count, let provider = PushProvider(rawValue: providers[i]) else { return nil }
                let configuration = i < configurations.count && !configurations[i].isEmpty ? configurations[i] : nil
                return DeviceToken(token: tokens[i], registeredAtMs: registered[i], provider: provider, configuration: configuration)
            }
            let state = RecipientPushState(
                userID: user, tokens: known,
                preferences: try columns["no_preferences"].decode(Bool.self) ? .defaults : try PreferenceColumns.userPreferences(columns),
                channelPreference: .defaults, templateName: templateName,
                languages: PreferredLanguages(stored: try columns["preferred_languages"].decode(String.self)))
            var channelPreferences: [ExactID: ChannelPushPreference] = [:]
            if let channels = try columns["channels"].decode([String]?.self) {
                let triggers = try columns["triggers"].decode([String].self)
                let sounds = try columns["sounds"].decode([String].self)
                let hasSound = try columns["has_sound"].decode([Bool].self)
                for (index, channel) in channels.enumerated() {
                    guard let trigger = ChannelPushTriggerOption(rawValue: triggers[index]) else {
                        throw PushStoreError.corruptValue(
                            table: PreferenceColumns.channelTable, column: "push_trigger_option", value: triggers[index])
                    }
                    channelPreferences[ExactID(channel)] = ChannelPushPreference(
                        triggerOption: trigger, pushSound: hasSound[index] ? sounds[index] : nil)
                }
            }
            entries[ExactID(user)] = RecipientCache.UserEntry(state: state, channelPreferences: channelPreferences)
        }
        return entries
    }
}
