import GRDB
import PushCore

extension PushStore {
    /// The push state of several users for one channel, from one consistent read. Users the relay
    /// has never seen are absent from the result (they have no tokens to push to).
    public func recipientStates(app: String, users: [String], channel: String) async throws -> [String: RecipientPushState] {
        try await pool.read { db in
            var states: [String: RecipientPushState] = [:]
            for user in Set(users) {
                guard let templateName = try Self.pushTemplateName(db, app: app, user: user) else { continue }
                states[user] = RecipientPushState(
                    userID: user,
                    tokens: try Self.tokens(db, app: app, user: user),
                    preferences: try Self.preferences(db, app: app, user: user),
                    channelPreference: try Self.channelPreference(db, app: app, user: user, channel: channel),
                    templateName: templateName
                )
            }
            return states
        }
    }
}
