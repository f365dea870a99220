import PushCore
import Testing
@testable import PushStore
@testable import StoreContract

@Suite(.timeLimit(.minutes(5))) struct PushStoreTemplatesTests {
    @Test(arguments: StoreKind.allCases) func templateChoiceDefaultsToDefaultAndPersists(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let store = try await db.open()
        #expect(try await store.pushTemplateName(app: "A", user: "u") == nil)
        _ = try await store.registerToken(app: "A", user: "u", token: hexToken(1), isUnique: false)
        #expect(try await store.pushTemplateName(app: "A", user: "u") == .default)
        try await store.setPushTemplateName(app: "A", user: "u", .alternative)
        #expect(try await db.open().pushTemplateName(app: "A", user: "u") == .alternative)
    }

    @Test(arguments: StoreKind.allCases) func noTemplateIsStoredUntilOneIsChanged(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let store = try await db.open()
        #expect(try await store.storedMessageTemplates(app: "A").isEmpty)
        #expect(try await store.storedMessageTemplate(app: "A", name: .default) == nil)
    }

    @Test(arguments: StoreKind.allCases) func updatingOneTemplateStartsFromTheBaselineAndLeavesTheOtherAndOtherApps(kind: StoreKind)
        async throws
    {
        let db = try await TestDatabase.make(kind)
        let store = try await db.open()
        let baseline = PushMessageTemplate(mesg: "configured", file: "configured file", admm: "configured admin")
        let updated = try await store.updateMessageTemplate(app: "A", name: .alternative, startingFrom: baseline) {
            $0.mesg = "{sender_name} wrote"
        }
        #expect(updated == PushMessageTemplate(mesg: "{sender_name} wrote", file: "configured file", admm: "configured admin"))
        #expect(try await store.storedMessageTemplate(app: "A", name: .alternative) == updated)
        #expect(try await store.storedMessageTemplate(app: "A", name: .default) == nil)
        #expect(try await store.storedMessageTemplate(app: "B", name: .alternative) == nil)
        #expect(try await store.storedMessageTemplates(app: "A") == [.alternative: updated])
        // A stored template is changed from what is stored, not from the baseline.
        let again = try await store.updateMessageTemplate(app: "A", name: .alternative, startingFrom: .sendbirdDefault(for: .alternative)) {
            $0.admm = "news"
        }
        #expect(again == PushMessageTemplate(mesg: "{sender_name} wrote", file: "configured file", admm: "news"))
    }

    @Test(arguments: StoreKind.allCases) func recipientStatesReadEverythingForKnownUsers(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let clock = ManualClock(7)
        let store = try await db.open(clock: clock)
        _ = try await store.registerToken(app: "A", user: "u1", token: hexToken(1), isUnique: false)
        try await store.updatePreferences(app: "A", user: "u2") { $0.pushTriggerOption = .mentionOnly }
        try await store.updateChannelPreference(app: "A", user: "u2", channel: "c") { $0.triggerOption = .off }
        try await store.setPushTemplateName(app: "A", user: "u2", .alternative)

        let states = try await store.recipientStates(app: "A", users: ["u1", "u2", "ghost", "u1"], channel: "c")
        #expect(Set(states.keys) == ["u1", "u2"])
        #expect(
            states["u1"]
                == RecipientPushState(
                    userID: "u1", tokens: [DeviceToken(token: hexToken(1), registeredAtMs: 7)], preferences: .defaults,
                    channelPreference: .defaults, templateName: .default))
        #expect(states["u2"]?.preferences.pushTriggerOption == .mentionOnly)
        #expect(states["u2"]?.channelPreference.triggerOption == .off)
        #expect(states["u2"]?.templateName == .alternative)
        #expect(states["u2"]?.tokens == [])
    }
}
