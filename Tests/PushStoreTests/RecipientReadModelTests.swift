import Foundation
import GRDB
import PushCore
import Testing
@testable import PushStore
@testable import StoreContract

/// The read model in `users` (`RecipientReadModelSchema`) must say what the source tables say,
/// after every kind of write and after the migration that introduces it.
@Suite(.timeLimit(.minutes(5))) struct RecipientReadModelTests {
    static let users = ["u", "v", "w", "ghost"]

    /// What the webhook reads (`userEntries`, from the read model) against the same users read
    /// straight from `device_tokens`, `user_push_preferences` and `channel_push_preferences`.
    func expectReadModelMatchesSources(_ store: SQLiteStore, _ step: String, sourceLocation: SourceLocation = #_sourceLocation)
        async throws
    {
        let (readModel, sources) = try await store.pool.read { db in
            (
                try SQLiteStore.userEntries(db, app: "A", users: Self.users, userList: SQLiteStore.jsonArray(of: Self.users)),
                try Self.sourceEntries(db, app: "A", users: Self.users)
            )
        }
        for user in Self.users {
            #expect(readModel[ExactID(user)]?.state == sources[ExactID(user)]?.state, "\(step): \(user)", sourceLocation: sourceLocation)
            #expect(
                readModel[ExactID(user)]?.channelPreferences == sources[ExactID(user)]?.channelPreferences, "\(step): \(user)'s channels",
                sourceLocation: sourceLocation)
        }
    }

    /// The oracle: each source table read on its own, as the webhook read them before the read model.
    static func sourceEntries(_ db: Database, app: String, users: [String]) throws -> [ExactID: RecipientCache.UserEntry] {
        var entries: [ExactID: RecipientCache.UserEntry] = [:]
        for user in users {
            guard
                let template = try String.fetchOne(
                    db, sql: "SELECT push_template FROM users WHERE app_id = ? AND user_id = ?", arguments: [app, user])
            else {
                entries[ExactID(user)] = RecipientCache.UserEntry(state: nil, channelPreferences: [:])
                continue
            }
            let tokens = try Row.fetchAll(
                db,
                sql: "SELECT token, registered_at, provider FROM device_tokens WHERE app_id = ? AND user_id = ? ORDER BY registered_at, id",
                arguments: [app, user]
            ).compactMap { row in
                PushProvider(rawValue: row["provider"]).map {
                    DeviceToken(token: row["token"], registeredAtMs: row["registered_at"], provider: $0)
                }
            }
            let preferences = try UserPreferencesRow.fetch(db, app: app, user: user) ?? .defaults
            var channels: [ExactID: ChannelPushPreference] = [:]
            for record in try ChannelPreferenceRecord.filter(Column("app_id") == app && Column("user_id") == user).fetchAll(db) {
                channels[ExactID(record.channelURL)] = try record.preference()
            }
            entries[ExactID(user)] = RecipientCache.UserEntry(
                state: RecipientPushState(
                    userID: user, tokens: tokens, preferences: preferences, channelPreference: .defaults,
                    templateName: try #require(PushTemplateName(rawValue: template))),
                channelPreferences: channels)
        }
        return entries
    }

    static let fullPreferences = UserPushPreferences(
        pushTriggerOption: .mentionOnly, doNotDisturb: true,
        dndWindow: TimeWindow(startHour: 22, startMin: 30, endHour: 6, endMin: 15), timezone: "Asia/Seoul",
        snoozeEnabled: true, snoozeStartMs: 1_700_000_000_000, snoozeEndMs: 1_700_000_360_000,
        dndSchedules: [DNDSchedule(dayOfWeek: .monday, timeWindows: [TimeWindow(startHour: 22, startMin: 0, endHour: 6, endMin: 0)])],
        pushSound: "ding \"quoted\" \u{e9}.caf", blockPushFromBots: true, pushBlockedBotIDs: ["bot1", "bot\\2"],
        enablePushForReplies: true)

    @Test func everyKindOfRegistryWriteKeepsTheReadModelRight() async throws {
        let db = try TemporaryDatabase()
        let clock = ManualClock()
        let store = try db.open(clock: clock)
        try await expectReadModelMatchesSources(store, "empty")

        // Tokens registered in the same millisecond and later, of both providers.
        _ = try await store.registerToken(app: "A", user: "u", token: hexToken(1), isUnique: false)
        _ = try await store.registerToken(app: "A", user: "u", token: hexToken(2), isUnique: false)
        clock.advance(by: 5)
        _ = try await store.registerToken(app: "A", user: "u", token: "fcm-token:1", isUnique: false, provider: .fcm)
        _ = try await store.registerToken(app: "A", user: "v", token: hexToken(3), isUnique: false)
        try await expectReadModelMatchesSources(store, "registered")
        #expect(try await store.tokens(app: "A", user: "u")?.count == 3)

        // A token registered again moves to the end; one taken by another user leaves its owner.
        clock.advance(by: 5)
        _ = try await store.registerToken(app: "A", user: "u", token: hexToken(1), isUnique: false)
        _ = try await store.registerToken(app: "A", user: "v", token: hexToken(2), isUnique: false)
        try await expectReadModelMatchesSources(store, "re-registered and moved")
        _ = try await store.registerToken(app: "A", user: "u", token: hexToken(4), isUnique: true)
        try await expectReadModelMatchesSources(store, "unique registration")

        // Preferences: every field, a change, a reset.
        _ = try await store.updatePreferences(app: "A", user: "u") { $0 = Self.fullPreferences }
        try await expectReadModelMatchesSources(store, "full preferences")
        _ = try await store.updatePreferences(app: "A", user: "u") { $0.pushTriggerOption = .off }
        _ = try await store.updatePreferences(app: "A", user: "w") { $0.timezone = "Europe/Paris" }
        try await expectReadModelMatchesSources(store, "preferences changed; a user created by them")
        _ = try await store.resetPreferences(app: "A", user: "u")
        try await expectReadModelMatchesSources(store, "preferences reset")

        // Channel preferences: several, changed.
        for channel in ["c1", "c2", "c3"] {
            try await store.updateChannelPreference(app: "A", user: "v", channel: channel) { $0.triggerOption = .mentionOnly }
        }
        try await store.updateChannelPreference(app: "A", user: "v", channel: "c2") { $0.pushSound = "c2.caf" }
        try await expectReadModelMatchesSources(store, "channel preferences")
        #expect(
            try await store.pool.read { try Int.fetchOne($0, sql: "SELECT channel_preference_count FROM users WHERE user_id = 'v'") } == 3)

        // Template choice; tokens removed one by one, by provider and all at once, and by an answer.
        try await store.setPushTemplateName(app: "A", user: "v", .alternative)
        #expect(try await store.removeToken(app: "A", user: "u", token: "fcm-token:1", provider: .fcm))
        try await expectReadModelMatchesSources(store, "template; FCM token removed")
        #expect(try await store.removeToken(app: "A", token: hexToken(2), ifRegisteredBefore: clock.milliseconds + 1))
        try await expectReadModelMatchesSources(store, "token removed after an answer")
        _ = try await store.removeAllTokens(app: "A", user: "u")
        try await expectReadModelMatchesSources(store, "all tokens removed")

        // Erasure deletes the user with everything naming them (cascades fire the triggers too).
        _ = try await store.registerToken(app: "A", user: "v", token: hexToken(5), isUnique: false)
        #expect(try await store.eraseUser(app: "A", user: "v"))
        try await expectReadModelMatchesSources(store, "erased")
        _ = try await store.registerToken(app: "A", user: "v", token: hexToken(6), isUnique: false)
        try await expectReadModelMatchesSources(store, "created again after erasure")
        #expect(
            try await store.pool.read { try Int.fetchOne($0, sql: "SELECT channel_preference_count FROM users WHERE user_id = 'v'") } == 0)
    }

    /// The 20-token cap evicts the oldest; the read model loses it too.
    @Test func evictionBeyondTheTokenLimitIsSeen() async throws {
        let db = try TemporaryDatabase()
        let clock = ManualClock()
        let store = try db.open(clock: clock)
        for n in 0..<25 {
            clock.advance(by: 1)
            _ = try await store.registerToken(app: "A", user: "u", token: hexToken(n), isUnique: false)
        }
        try await expectReadModelMatchesSources(store, "after eviction")
        let state = try await store.recipientStates(app: "A", users: ["u"], channel: "c")["u"]
        #expect(state?.tokens.first?.token == hexToken(5))
    }

    /// A database from before the read model gets it filled from its existing rows.
    @Test func theMigrationFillsTheReadModelFromExistingRows() async throws {
        let db = try TemporaryDatabase()
        do {
            let pool = try DatabasePool(path: db.path)
            try PushStoreMigrations.migrator.migrate(pool, upTo: "v7_fcm_message_names")
            try await pool.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO users (app_id, user_id, created_at, push_template) VALUES ('A', 'u', 1, 'alternative'), ('A', 'v', 1, 'default'),
                            ('A', 'w', 1, 'default'), ('B', 'u', 1, 'default');
                        INSERT INTO device_tokens (app_id, token, user_id, registered_at, provider) VALUES
                            ('A', '\(hexToken(2))', 'u', 20, 'apns'), ('A', 'f1', 'u', 10, 'fcm'), ('A', '\(hexToken(3))', 'u', 20, 'apns'),
                            ('A', 'w1', 'u', 5, 'wns'), ('B', '\(hexToken(9))', 'u', 1, 'apns');
                        INSERT INTO channel_push_preferences (app_id, user_id, channel_url, push_trigger_option, push_sound) VALUES
                            ('A', 'v', 'c', 'off', NULL), ('A', 'v', 'd', 'all', 's.caf');
                        """)
                try UserPreferencesRow.save(db, app: "A", user: "w", Self.fullPreferences)
            }
            try pool.close()
        }
        let store = try db.open()
        try await expectReadModelMatchesSources(store, "migrated")
        let states = try await store.recipientStates(app: "A", users: ["u", "v", "w"], channel: "c")
        // Oldest first, ties by id, whatever the provider (the planner leaves out those the app has no route to).
        #expect(states["u"]?.tokens.map(\.token) == ["w1", "f1", hexToken(2), hexToken(3)])
        #expect(states["u"]?.templateName == .alternative)
        #expect(states["v"]?.channelPreference.triggerOption == .off)
        #expect(states["w"]?.preferences == Self.fullPreferences)
        #expect(try await store.recipientStates(app: "B", users: ["u"], channel: "c")["u"]?.tokens.map(\.token) == [hexToken(9)])
    }

    /// `v20_preferences_by_name` rewrites the copies the positional triggers wrote as objects keyed
    /// by column name, and the new triggers keep writing them so.
    @Test func preferenceCopiesBecomeObjectsKeyedByColumnName() async throws {
        let db = try TemporaryDatabase()
        do {
            let pool = try DatabasePool(path: db.path)
            try PushStoreMigrations.migrator.migrate(pool, upTo: "v19_delivery_provider")
            try await pool.write { db in
                try db.execute(sql: "INSERT INTO users (app_id, user_id, created_at, push_template) VALUES ('A', 'w', 1, 'default')")
                try UserPreferencesRow.save(db, app: "A", user: "w", Self.fullPreferences)
                #expect(try String.fetchOne(db, sql: "SELECT push_preferences FROM users")?.hasPrefix("[") == true)
            }
            try pool.close()
        }
        let store = try db.open()
        let copy = try await store.pool.read { try String.fetchOne($0, sql: "SELECT push_preferences FROM users") }
        #expect(copy?.hasPrefix("{\"push_trigger_option\":\"mention_only\"") == true)
        #expect(try await store.recipientStates(app: "A", users: ["w"], channel: "c")["w"]?.preferences == Self.fullPreferences)
        try await store.updatePreferences(app: "A", user: "w") { $0.pushSound = "new.caf" }
        #expect(try await store.recipientStates(app: "A", users: ["w"], channel: "c")["w"]?.preferences.pushSound == "new.caf")
        try await expectReadModelMatchesSources(store, "after v20")
    }

    /// A read model that does not parse is a corrupt value naming the column, not a crash or a
    /// user without tokens.
    @Test(arguments: [
        "push_tokens = 'not json'", "push_tokens = '[[1, 2, 3, 4]]'", "push_preferences = '[\"all\"]'",
        "push_preferences = '{\"push_trigger_option\": 5}'", "push_preferences = '{\"do_not_disturb\": 2}'",
    ])
    func aCorruptReadModelIsAnError(assignment: String) async throws {
        let db = try TemporaryDatabase()
        let store = try db.open()
        _ = try await store.registerToken(app: "A", user: "u", token: hexToken(1), isUnique: false)
        try await store.pool.write { try $0.execute(sql: "UPDATE users SET \(assignment)") }
        await #expect(throws: PushStoreError.self) { try await store.recipientStates(app: "A", users: ["u"], channel: "c") }
    }

    /// The error for unreadable tokens may be logged: it shows no token in full.
    @Test func aCorruptTokenListIsReportedWithoutTheTokens() async throws {
        let db = try TemporaryDatabase()
        let store = try db.open()
        _ = try await store.registerToken(app: "A", user: "u", token: hexToken(1), isUnique: false)
        try await store.pool.write { try $0.execute(sql: "UPDATE users SET push_tokens = '[[\"' || push_tokens || '\"]]'") }
        let error = await #expect(throws: PushStoreError.self) {
            try await store.recipientStates(app: "A", users: ["u"], channel: "c")
        }
        let description = try #require(error).description
        #expect(description.contains("users.push_tokens"))
        #expect(!description.contains(hexToken(1)))
    }
}
