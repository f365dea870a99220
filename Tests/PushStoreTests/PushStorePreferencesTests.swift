import PushCore
import Testing
@testable import PushStore
@testable import StoreContract

@Suite(.timeLimit(.minutes(5))) struct PushStorePreferencesTests {
    struct Rejected: Error {}

    @Test(arguments: StoreKind.allCases) func unknownUsersHaveNoPreferencesKnownOnesHaveDefaults(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let store = try await db.open()
        #expect(try await store.preferences(app: "A", user: "u") == nil)
        #expect(try await store.channelPreference(app: "A", user: "u", channel: "c") == nil)
        #expect(try await store.resetPreferences(app: "A", user: "u") == nil)
        #expect(try await store.userExists(app: "A", user: "u") == false)
        try await store.setPushTemplateName(app: "A", user: "u", .default)
        #expect(try await store.preferences(app: "A", user: "u") == .defaults)
        #expect(try await store.channelPreference(app: "A", user: "u", channel: "c") == .defaults)
    }

    @Test(arguments: StoreKind.allCases) func everyFieldRoundTrips(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let store = try await db.open()
        let full = UserPushPreferences(
            pushTriggerOption: .mentionOnly,
            doNotDisturb: true,
            dndWindow: TimeWindow(startHour: 22, startMin: 30, endHour: 6, endMin: 15),
            timezone: "Asia/Seoul",
            snoozeEnabled: true,
            snoozeStartMs: 1_700_000_000_000,
            snoozeEndMs: 1_700_000_360_000,
            dndSchedules: [
                DNDSchedule(dayOfWeek: .monday, timeWindows: [TimeWindow(startHour: 22, startMin: 0, endHour: 6, endMin: 0)]),
                DNDSchedule(
                    dayOfWeek: .sunday,
                    timeWindows: [
                        TimeWindow(startHour: 1, startMin: 2, endHour: 3, endMin: 4),
                        TimeWindow(startHour: 5, startMin: 6, endHour: 7, endMin: 8),
                    ]),
            ],
            pushSound: "ding.caf",
            blockPushFromBots: true,
            pushBlockedBotIDs: ["bot1", "bot2"],
            enablePushForReplies: true
        )
        let stored = try await store.updatePreferences(app: "A", user: "u") { $0 = full }
        #expect(stored == full)
        #expect(try await db.open().preferences(app: "A", user: "u") == full)
        // The webhook's bulk read decodes rows by column position: the same value.
        try await store.updateChannelPreference(app: "A", user: "u", channel: "c") {
            $0 = ChannelPushPreference(triggerOption: .mentionOnly, pushSound: "c.caf")
        }
        let state = try await store.recipientStatesAndTemplates(app: "A", users: ["u"], channel: "c").states["u"]
        #expect(state?.preferences == full)
        #expect(state?.channelPreference == ChannelPushPreference(triggerOption: .mentionOnly, pushSound: "c.caf"))
    }

    @Test(arguments: StoreKind.allCases) func anErrorInTheChangeLeavesStoredPreferencesUntouched(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let store = try await db.open()
        try await store.updatePreferences(app: "A", user: "u") { $0.pushSound = "a.caf" }
        await #expect(throws: Rejected.self) {
            try await store.updatePreferences(app: "A", user: "u") { prefs in
                prefs.pushSound = "b.caf"
                throw Rejected()
            }
        }
        #expect(try await store.preferences(app: "A", user: "u")?.pushSound == "a.caf")
    }

    @Test(arguments: StoreKind.allCases) func aRejectedFirstWriteDoesNotCreateTheUser(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let store = try await db.open()
        await #expect(throws: Rejected.self) {
            try await store.updatePreferences(app: "A", user: "new") { _ in throw Rejected() }
        }
        #expect(try await store.userExists(app: "A", user: "new") == false)
    }

    @Test(arguments: StoreKind.allCases) func resetReturnsToDefaultsButKeepsTokensAndChannels(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let store = try await db.open()
        _ = try await store.registerToken(app: "A", user: "u", token: hexToken(1), isUnique: false)
        try await store.updatePreferences(app: "A", user: "u") {
            $0.doNotDisturb = true
            $0.timezone = "Europe/London"
        }
        try await store.updateChannelPreference(app: "A", user: "u", channel: "c") { $0.triggerOption = .off }
        #expect(try await store.resetPreferences(app: "A", user: "u") == .defaults)
        #expect(try await store.preferences(app: "A", user: "u") == .defaults)
        #expect(try await store.tokens(app: "A", user: "u")?.count == 1)
        #expect(try await store.channelPreference(app: "A", user: "u", channel: "c")?.triggerOption == .off)
    }

    @Test(arguments: StoreKind.allCases) func channelPreferencesArePerChannel(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let store = try await db.open()
        let url = "sendbird_group_channel_1/with spaces?&"
        let stored = try await store.updateChannelPreference(app: "A", user: "u", channel: url) {
            $0 = ChannelPushPreference(triggerOption: .mentionOnly, pushSound: "x.caf")
        }
        #expect(stored == ChannelPushPreference(triggerOption: .mentionOnly, pushSound: "x.caf"))
        #expect(try await store.channelPreference(app: "A", user: "u", channel: url) == stored)
        #expect(try await store.channelPreference(app: "A", user: "u", channel: "other") == .defaults)
        // Back to the defaults: stored as no row, read back as the defaults.
        try await store.updateChannelPreference(app: "A", user: "u", channel: url) { $0 = .defaults }
        #expect(try await store.channelPreference(app: "A", user: "u", channel: url) == .defaults)
    }

    /// `ChannelPreferenceWrite` on both stores: a new row beyond the limit is refused and nothing
    /// is written; a user at the limit may still change or remove the rows they have.
    @Test(arguments: StoreKind.allCases) func aNewChannelPreferenceBeyondTheLimitIsRefused(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let store = try await db.open()
        for channel in ["c1", "c2"] {
            try await store.updateChannelPreference(app: "A", user: "u", channel: channel, maximumPerUser: 2) { $0.triggerOption = .off }
        }
        await #expect(throws: PushStoreError.limitReached(what: "channel push preferences", limit: 2)) {
            try await store.updateChannelPreference(app: "A", user: "u", channel: "c3", maximumPerUser: 2) { $0.triggerOption = .off }
        }
        #expect(try await store.channelPreference(app: "A", user: "u", channel: "c3") == .defaults)
        try await store.updateChannelPreference(app: "A", user: "u", channel: "c1", maximumPerUser: 2) { $0.triggerOption = .mentionOnly }
        #expect(try await store.channelPreference(app: "A", user: "u", channel: "c1")?.triggerOption == .mentionOnly)
        // Back to the defaults frees a row, and a default preference takes none.
        try await store.updateChannelPreference(app: "A", user: "u", channel: "c2", maximumPerUser: 2) { $0 = .defaults }
        try await store.updateChannelPreference(app: "A", user: "u", channel: "c4", maximumPerUser: 2) { $0 = .defaults }
        try await store.updateChannelPreference(app: "A", user: "u", channel: "c3", maximumPerUser: 2) { $0.triggerOption = .off }
        #expect(try await db.count("SELECT COUNT(*) FROM channel_push_preferences WHERE user_id = 'u'") == 2)
    }
}
