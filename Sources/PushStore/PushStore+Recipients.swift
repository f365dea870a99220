import GRDB
import PushCore

extension PushStore {
    /// The push state of several users for one channel, from one consistent read. Users the relay
    /// has never seen are absent from the result (they have no tokens to push to).
    ///
    /// This is the webhook's hot path: four cached statements, each taking the whole user list
    /// as one JSON array (`json_each`), instead of four queries per user.
    public func recipientStates(app: String, users: [String], channel: String) async throws -> [String: RecipientPushState] {
        guard !users.isEmpty else { return [:] }
        let list = Self.jsonArray(of: users)
        return try await pool.read { db in try Self.recipientStates(db, app: app, userList: list, channel: channel) }
    }

    /// `recipientStates` and the app's templates in one read (one snapshot).
    ///
    /// Synchronous on purpose: it runs on the caller's thread with a pooled reader connection.
    /// The read is a few page-cache lookups (tens of µs); handing it to GRDB's reader queue and
    /// back costs more CPU than the read itself (measured with `pipeline-bench`: ~160 µs per hop
    /// on a 2-core VM), and it never waits for the writer (WAL).
    public func recipientStatesAndTemplates(
        app: String, users: [String], channel: String
    ) throws -> (states: [String: RecipientPushState], templates: [PushTemplateName: PushMessageTemplate]) {
        let list = Self.jsonArray(of: users)
        return try pool.read { db in
            let states = users.isEmpty ? [:] : try Self.recipientStates(db, app: app, userList: list, channel: channel)
            return (states, try Self.messageTemplates(db, app: app))
        }
    }

    static func recipientStates(_ db: Database, app: String, userList: String, channel: String) throws -> [String: RecipientPushState] {
        var states: [String: RecipientPushState] = [:]
        let users = try db.cachedStatement(sql: """
            SELECT user_id, push_template FROM users
            WHERE app_id = ? AND user_id IN (SELECT value FROM json_each(?))
            """)
        let userRows = try Row.fetchCursor(users, arguments: [app, userList])
        while let row = try userRows.next() {
            let user: String = row[0]
            let raw: String = row[1]
            guard let templateName = PushTemplateName(rawValue: raw) else {
                throw PushStoreError.corruptValue(table: "users", column: "push_template", value: raw)
            }
            states[user] = RecipientPushState(userID: user, tokens: [], preferences: .defaults,
                                              channelPreference: .defaults, templateName: templateName)
        }
        guard !states.isEmpty else { return states }

        let tokens = try db.cachedStatement(sql: """
            SELECT user_id, token, registered_at FROM device_tokens
            WHERE app_id = ? AND user_id IN (SELECT value FROM json_each(?))
            ORDER BY user_id, registered_at, id
            """)
        let tokenRows = try Row.fetchCursor(tokens, arguments: [app, userList])
        while let row = try tokenRows.next() {
            let user: String = row[0]
            states[user]?.tokens.append(DeviceToken(token: row[1], registeredAtMs: row[2]))
        }

        let preferences = try db.cachedStatement(sql: """
            SELECT * FROM user_push_preferences
            WHERE app_id = ? AND user_id IN (SELECT value FROM json_each(?))
            """)
        for record in try UserPreferencesRecord.fetchAll(preferences, arguments: [app, userList]) {
            states[record.userID]?.preferences = try record.preferences()
        }

        let channelPreferences = try db.cachedStatement(sql: """
            SELECT * FROM channel_push_preferences
            WHERE app_id = ? AND channel_url = ? AND user_id IN (SELECT value FROM json_each(?))
            """)
        for record in try ChannelPreferenceRecord.fetchAll(channelPreferences, arguments: [app, channel, userList]) {
            states[record.userID]?.channelPreference = try record.preference()
        }
        return states
    }

    /// A JSON array of strings, for `json_each(?)`.
    static func jsonArray(of strings: [String]) -> String {
        JSONWriter.string(.array(strings.map(JSONValue.string)))
    }
}
