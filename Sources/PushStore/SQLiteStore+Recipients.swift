import GRDB
import PushCore
import StoreContract

extension SQLiteStore {
    /// The push state of several users for one channel, from one consistent read. Users the relay
    /// has never seen are absent from the result (they have no tokens to push to).
    ///
    /// One cached statement taking the whole user list as one JSON array (`json_each`), one probe
    /// per user into the read model in `users` (`userEntries`).
    public func recipientStates(app: String, users: [String], channel: String) async throws -> [ExactID: RecipientPushState] {
        guard !users.isEmpty else { return [:] }
        let list = Self.jsonArray(of: users)
        let entries = try await pool.read { db in try Self.userEntries(db, app: app, users: users, userList: list) }
        return RecipientCache.states(entries, channel: channel)
    }

    public var recipientCacheStatistics: RecipientCacheStatistics { recipientCache.statistics }

    /// `recipientStates` and the templates the app changed through the API, as the webhook needs them.
    ///
    /// Served from `RecipientCache` while no registry write of the app has committed since the
    /// users were last read; otherwise one read (one snapshot, `SnapshotReaders`) for the missing users and
    /// templates. Synchronous on purpose: a read runs on the caller's thread with a pooled reader
    /// connection. It is a few page lookups (tens of µs); handing it to GRDB's reader queue and
    /// back costs more CPU than the read itself (`pipeline-bench`: ~160 µs per hop on a 2-core
    /// VM), and it never waits for the writer (WAL).
    public func recipientStatesAndTemplates(
        app: String, users: [String], channel: String
    ) throws -> (states: [ExactID: RecipientPushState], templates: [PushTemplateName: PushMessageTemplate]) {
        let cached = recipientCache.lookUp(app: app, users: users)
        let (missing, version) = (cached.missing, cached.version)
        var (found, templates) = (cached.found, cached.templates)
        if !missing.isEmpty || templates == nil {
            let list = Self.jsonArray(of: missing)
            let needsTemplates = templates == nil
            let read = { (db: Database) in
                (
                    missing.isEmpty ? [:] : try Self.userEntries(db, app: app, users: missing, userList: list),
                    needsTemplates ? try Self.storedMessageTemplates(db, app: app) : nil
                )
            }
            // Through the pool only when every snapshot reader is in use.
            let (readUsers, readTemplates) = try snapshotReaders.read(version: version, read) ?? pool.read(read)
            recipientCache.store(app: app, users: readUsers, templates: readTemplates, version: version)
            // At a million users nearly every member is read: nothing to merge into.
            if found.isEmpty { found = readUsers } else { found.merge(readUsers) { _, new in new } }
            templates = templates ?? readTemplates
        }
        return (RecipientCache.states(found, channel: channel), templates ?? [:])
    }

    /// Every one of `users` (unknown ones with a nil state) with their preferences for all channels.
    ///
    /// One probe per user into `users`, which holds the read model (`RecipientReadModelSchema`):
    /// template choice, tokens and preferences. `channel_push_preferences` is read only for the
    /// users that have some.
    static func userEntries(_ db: Database, app: String, users: [String], userList: String) throws -> [ExactID: RecipientCache.UserEntry] {
        var entries: [ExactID: RecipientCache.UserEntry] = [:]
        entries.reserveCapacity(users.count)
        var withChannelPreferences: [String] = []
        try forEachRow(
            db, select: "user_id, push_template, push_tokens, push_preferences, channel_preference_count, preferred_languages FROM users",
            app: app,
            userList: userList
        ) { row in
            let user = row.string(0)
            entries[ExactID(user)] = RecipientCache.UserEntry(state: try recipientState(app: app, user: user, row), channelPreferences: [:])
            if row.int64(4) > 0 { withChannelPreferences.append(user) }
        }
        // Users without a row are filed as unknown (cached as such: they have nothing to push to).
        if entries.count < users.count {
            for user in users where entries[ExactID(user)] == nil {
                entries[ExactID(user)] = RecipientCache.UserEntry(state: nil, channelPreferences: [:])
            }
        }
        guard !withChannelPreferences.isEmpty else { return entries }
        try forEachRow(
            db, select: "\(ChannelPreferenceRecord.rawColumns) FROM channel_push_preferences", app: app,
            userList: withChannelPreferences.count == users.count ? userList : jsonArray(of: withChannelPreferences)
        ) { row in
            let record = ChannelPreferenceRecord(raw: row)
            entries[ExactID(record.userID)]?.channelPreferences[ExactID(record.channelURL)] = try record.preference()
        }
        return entries
    }

    /// A user's state from their `users` row (columns 1-3: push_template, push_tokens,
    /// push_preferences), with the channel preference left at the defaults.
    private static func recipientState(app: String, user: String, _ row: RawStatement.Row) throws -> RecipientPushState {
        let raw = row.string(1)
        guard let templateName = PushTemplateName(rawValue: raw) else {
            throw PushStoreError.corruptValue(table: "users", column: "push_template", value: raw)
        }
        let preferences =
            try row.optionalString(3).map(UserPreferencesRow.readModel) ?? .defaults
        return RecipientPushState(
            userID: user, tokens: try ReadModelTokens.decode(row.string(2)), preferences: preferences,
            channelPreference: .defaults, templateName: templateName, languages: PreferredLanguages(stored: row.string(5)))
    }

    /// Runs `SELECT <select> WHERE app_id = app AND user_id IN userList [ORDER BY …]` (one cached
    /// statement per text; `userList` is a JSON array, see `jsonArray`) and hands over each row.
    private static func forEachRow(
        _ db: Database, select: String, app: String, userList: String, orderBy: String? = nil,
        _ body: (RawStatement.Row) throws -> Void
    ) throws {
        let statement = RawStatement(
            try db.cachedStatement(
                sql: """
                    SELECT \(select) WHERE app_id = ? AND user_id IN (SELECT value FROM json_each(?))\(orderBy.map { " ORDER BY \($0)" } ?? "")
                    """))
        statement.bind(1, app)
        statement.bind(2, userList)
        try statement.forEachRow(body)
    }

    /// A JSON array of strings, for `json_each(?)`.
    static func jsonArray(of strings: [String]) -> String {
        JSONWriter.string(.array(strings.map(JSONValue.string)))
    }
}
