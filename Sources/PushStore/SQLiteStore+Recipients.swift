import GRDB
import PushCore

extension SQLiteStore {
    /// The push state of several users for one channel, from one consistent read. Users the relay
    /// has never seen are absent from the result (they have no tokens to push to).
    ///
    /// This is the webhook's hot path: four cached statements, each taking the whole user list
    /// as one JSON array (`json_each`), instead of four queries per user.
    public func recipientStates(app: String, users: [String], channel: String) async throws -> [String: RecipientPushState] {
        guard !users.isEmpty else { return [:] }
        let list = Self.jsonArray(of: users)
        let entries = try await pool.read { db in try Self.userEntries(db, app: app, users: users, userList: list) }
        return RecipientCache.states(entries, channel: channel)
    }

    /// `recipientStates` and the templates the app changed through the API, as the webhook needs them.
    ///
    /// Served from `RecipientCache` while no registry write has committed since the users were
    /// last read; otherwise one read (one snapshot) for the missing users and templates.
    /// Synchronous on purpose: a read runs on the caller's thread with a pooled reader
    /// connection. It is a few page lookups (tens of µs); handing it to GRDB's reader queue and
    /// back costs more CPU than the read itself (`pipeline-bench`: ~160 µs per hop on a 2-core
    /// VM), and it never waits for the writer (WAL).
    public func recipientStatesAndTemplates(
        app: String, users: [String], channel: String
    ) throws -> (states: [String: RecipientPushState], templates: [PushTemplateName: PushMessageTemplate]) {
        let version = recipientCache.version
        var (found, missing, templates) = recipientCache.lookUp(app: app, users: users, version: version)
        if !missing.isEmpty || templates == nil {
            let list = Self.jsonArray(of: missing)
            let (read, readTemplates) = try pool.read { db in
                (
                    missing.isEmpty ? [:] : try Self.userEntries(db, app: app, users: missing, userList: list),
                    templates == nil ? try Self.storedMessageTemplates(db, app: app) : nil
                )
            }
            recipientCache.store(app: app, users: read, templates: readTemplates, version: version)
            found.merge(read) { _, new in new }
            templates = templates ?? readTemplates
        }
        return (RecipientCache.states(found, channel: channel), templates ?? [:])
    }

    /// Every one of `users` (unknown ones with a nil state) with their preferences for all channels.
    static func userEntries(_ db: Database, app: String, users: [String], userList: String) throws -> [String: RecipientCache.UserEntry] {
        var entries: [String: RecipientCache.UserEntry] = [:]
        for user in users { entries[user] = RecipientCache.UserEntry(state: nil, channelPreferences: [:]) }
        for (user, state) in try recipientStates(db, app: app, userList: userList) {
            entries[user]?.state = state
        }
        try forEachRow(db, select: "\(ChannelPreferenceRecord.rawColumns) FROM channel_push_preferences", app: app, userList: userList) {
            row in
            let record = ChannelPreferenceRecord(raw: row)
            entries[record.userID]?.channelPreferences[record.channelURL] = try record.preference()
        }
        return entries
    }

    /// Users, tokens, preferences and template choice; channel preferences are left at the
    /// defaults (`userEntries` reads them for every channel).
    static func recipientStates(_ db: Database, app: String, userList: String) throws -> [String: RecipientPushState] {
        var states: [String: RecipientPushState] = [:]
        try forEachRow(db, select: "user_id, push_template FROM users", app: app, userList: userList) { row in
            let user = row.string(0)
            let raw = row.string(1)
            guard let templateName = PushTemplateName(rawValue: raw) else {
                throw PushStoreError.corruptValue(table: "users", column: "push_template", value: raw)
            }
            states[user] = RecipientPushState(
                userID: user, tokens: [], preferences: .defaults,
                channelPreference: .defaults, templateName: templateName)
        }
        guard !states.isEmpty else { return states }

        try forEachRow(
            db, select: "user_id, token, registered_at, provider FROM device_tokens", app: app, userList: userList,
            orderBy: "user_id, registered_at, id"
        ) { row in
            // A provider this version does not know (a newer relay's) cannot be delivered to here.
            guard let provider = PushProvider(rawValue: row.string(3)) else { return }
            states[row.string(0)]?.tokens.append(DeviceToken(token: row.string(1), registeredAtMs: row.int64(2), provider: provider))
        }

        try forEachRow(db, select: "\(UserPreferencesRecord.rawColumns) FROM user_push_preferences", app: app, userList: userList) { row in
            let record = UserPreferencesRecord(raw: row)
            states[record.userID]?.preferences = try record.preferences()
        }

        return states
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

extension RecipientLookup {
    /// The planner's view of what the store read.
    public init(_ states: [String: RecipientPushState]) {
        self.init()
        for (user, state) in states {
            userPreferences[user] = state.preferences
            channelPreferences[user] = state.channelPreference
            deviceTokens[user] = state.tokens
            templateChoices[user] = state.templateName
        }
    }
}
