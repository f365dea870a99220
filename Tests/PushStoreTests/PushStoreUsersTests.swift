import Foundation
import GRDB
import PushCore
import Testing
@testable import PushStore
@testable import StoreContract

@Suite(.timeLimit(.minutes(5))) struct PushStoreUsersTests {
    @Test(arguments: StoreKind.allCases) func usersAreCreatedOnceReadUpdatedAndListedInPages(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let clock = ManualClock()
        let store = try await db.open(clock: clock)
        let alice = try #require(try await store.createUser(app: "A", user: "alice", nickname: "Alice", profileURL: "https://x/a.png"))
        #expect(
            alice
                == UserProfile(
                    userID: "alice", nickname: "Alice", profileURL: "https://x/a.png", createdAtMs: clock.milliseconds, hasProfile: true))
        #expect(try await store.createUser(app: "A", user: "alice", nickname: "Other", profileURL: "") == nil)
        #expect(try await store.user(app: "A", user: "alice") == alice)
        #expect(try await store.user(app: "B", user: "alice") == nil)

        // A user the relay knows from a token has no profile until created; creating keeps the token.
        clock.advance(by: 5)
        _ = try await store.registerToken(app: "A", user: "bob", token: hexToken(1), isUnique: false)
        #expect(try await store.user(app: "A", user: "bob")?.hasProfile == false)
        let bob = try #require(try await store.createUser(app: "A", user: "bob", nickname: "Bob", profileURL: ""))
        #expect(bob.hasProfile && bob.nickname == "Bob")
        #expect(try await store.tokens(app: "A", user: "bob")?.map(\.token) == [hexToken(1)])

        #expect(try await store.updateUser(app: "A", user: "alice", change: UserProfileChange(nickname: "Al"))?.nickname == "Al")
        #expect(try await store.user(app: "A", user: "alice")?.profileURL == "https://x/a.png")
        #expect(try await store.updateUser(app: "A", user: "nobody", change: UserProfileChange(nickname: "x")) == nil)

        for n in 0..<5 { _ = try await store.createUser(app: "A", user: "u\(n)", nickname: "", profileURL: "") }
        var seen: [String] = []
        var after: String?
        repeat {
            let page = try await store.users(app: "A", after: after, limit: 3)
            seen += page.map(\.userID)
            after = page.count == 3 ? page.last?.userID : nil
        } while after != nil
        #expect(seen == ["alice", "bob", "u0", "u1", "u2", "u3", "u4"])
        #expect(try await store.users(app: "B", after: nil, limit: 10).isEmpty)
    }

    /// `preferred_languages` are stored in order, shown with the profile, kept by other changes,
    /// cleared by an empty list, and reach the planner's read of the user (the cache follows).
    @Test(arguments: StoreKind.allCases) func preferredLanguagesAreStoredAndReachThePlanner(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let store = try await db.open(clock: ManualClock())
        _ = try await store.registerToken(app: "A", user: "bora", token: hexToken(1), isUnique: false)
        func planned() async throws -> PreferredLanguages? {
            try await store.recipientStatesAndTemplates(app: "A", users: ["bora"], channel: "c").states[ExactID("bora")]?.languages
        }
        #expect(try await planned() == PreferredLanguages.none, "read once, now cached")
        let languages = try PreferredLanguages(["ko", "zh-CN", "en"])
        let updated = try await store.updateUser(app: "A", user: "bora", change: UserProfileChange(languages: languages))
        #expect(updated?.languages == languages)
        #expect(try await planned() == languages, "the update reaches the planner's read")
        _ = try await store.updateUser(app: "A", user: "bora", change: UserProfileChange(nickname: "Bora"))
        #expect(try await store.user(app: "A", user: "bora")?.languages.codes == ["ko", "zh-CN", "en"])
        _ = try await store.updateUser(app: "A", user: "bora", change: UserProfileChange(languages: try PreferredLanguages([])))
        #expect(try await store.user(app: "A", user: "bora")?.languages == PreferredLanguages.none)
        #expect(try await planned() == PreferredLanguages.none)
    }

    /// Everything naming the user goes; what names others stays, except the payloads of pushes
    /// the user sent, and those not yet sent fail.
    @Test(arguments: StoreKind.allCases) func erasingAUserRemovesEverythingNamingThem(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let store = try await db.open()
        try await Self.fillWithEve(store)
        #expect(try await store.eraseUser(app: "A", user: "eve"))

        for (table, column) in [
            ("users", "user_id"), ("device_tokens", "user_id"), ("user_push_preferences", "user_id"),
            ("channel_push_preferences", "user_id"), ("session_tokens", "user_id"), ("deliveries", "user_id"),
            ("decisions", "user_id"), ("events", "sender_id"),
        ] {
            #expect(try await db.count("SELECT COUNT(*) FROM \(table) WHERE app_id = 'A' AND \(column) = 'eve'") == 0, "\(table)")
        }
        #expect(try await db.count("SELECT COUNT(*) FROM delivery_attempts") == 0)
        // Carol's pushes: the one from eve lost its payload and failed; the one from bob is intact.
        #expect(try await db.count("SELECT COUNT(*) FROM deliveries WHERE user_id = 'carol'") == 2)
        #expect(
            try await db.count(
                "SELECT COUNT(*) FROM deliveries WHERE user_id = 'carol' AND state = 'failed' AND last_reason = 'UserDeleted'") == 1)
        #expect(try await db.count("SELECT COUNT(*) FROM delivery_payloads") == 1)
        #expect(try await store.tokens(app: "A", user: "carol")?.count == 1)
        #expect(try await store.tokens(app: "B", user: "eve")?.count == 1, "another app's eve is someone else")
        #expect(try await store.eraseUser(app: "A", user: "eve") == false)
        #expect(try await store.eraseUser(app: "A", user: "nobody") == false)
    }

    /// A member the relay only ever skipped (no token, no users row) is named by those skips and
    /// erased with them; an id nothing names costs the probes and is nobody.
    @Test(arguments: StoreKind.allCases) func aMemberOnlySkippedIsNamedAndErasedAndAnUnknownIdIsNot(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let store = try await db.open()
        #expect(
            try await store.acceptEvent(
                AcceptedEvent(
                    appID: "A", messageID: 7, channelURL: "c-1", senderID: "bob", acceptedAtMs: 7,
                    decisions: [RecipientDecisionRecord(userID: "lurker", decision: .skip(.noToken))], deliveries: [])))
        #expect(try await store.namesUser(app: "A", user: "lurker"))
        #expect(try await store.namesUser(app: "A", user: "bob"), "the sender of a stored event")
        #expect(try await store.namesUser(app: "B", user: "lurker") == false, "another app's")
        #expect(try await store.namesUser(app: "A", user: "nobody") == false)
        #expect(try await store.recentSkips(app: "A", user: "lurker", limit: 10).map(\.messageID) == [7])
        #expect(try await store.eraseUser(app: "A", user: "lurker"))
        #expect(try await db.count("SELECT COUNT(*) FROM decisions WHERE user_id = 'lurker'") == 0)
        #expect(try await store.namesUser(app: "A", user: "lurker") == false)
    }

    /// The bytes of the SQLite file and its WAL, after the erasure: neither eve's id nor a token
    /// of hers is anywhere (`secure_delete`, and the WAL checkpointed and truncated).
    @Test func anErasedUserLeavesNoBytesInTheSQLiteFile() async throws {
        let file = try TemporaryDatabase()
        let store = try file.open()
        try await Self.fillWithEve(store, app: "A", otherApp: nil)
        let before = try Self.bytes(of: file.path)
        #expect(before.range(of: Data("eve-7f3a".utf8)) != nil, "the test looks for bytes that are there")
        #expect(before.range(of: Data(Self.eveToken.utf8)) != nil)
        #expect(try await store.eraseUser(app: "A", user: "eve-7f3a"))
        let after = try Self.bytes(of: file.path)
        #expect(after.range(of: Data("eve-7f3a".utf8)) == nil)
        #expect(after.range(of: Data(Self.eveToken.utf8)) == nil)
        #expect(after.range(of: Data("carol".utf8)) != nil)
    }

    /// The same while the webhook's reader keeps a snapshot that has Eve in it: the erasure's
    /// checkpoint has it end it, and the WAL is emptied all the same.
    @Test func anErasedUserLeavesNoBytesWhileTheWebhookKeepsASnapshot() async throws {
        let file = try TemporaryDatabase()
        let store = try file.open()
        try await Self.fillWithEve(store, app: "A", otherApp: nil)
        let read = try store.recipientStatesAndTemplates(app: "A", users: ["eve-7f3a", "carol"], channel: "c-1")
        #expect(read.states["eve-7f3a"]?.tokens.map(\.token) == [Self.eveToken])
        #expect(try await store.eraseUser(app: "A", user: "eve-7f3a"))
        let after = try Self.bytes(of: file.path)
        #expect(after.range(of: Data("eve-7f3a".utf8)) == nil)
        #expect(after.range(of: Data(Self.eveToken.utf8)) == nil)
        #expect(try store.recipientStatesAndTemplates(app: "A", users: ["eve-7f3a"], channel: "c-1").states["eve-7f3a"] == nil)
        try await store.close()
    }

    static let eveToken = hexToken(0xe7e)

    static func bytes(of path: String) throws -> Data {
        var data = try Data(contentsOf: URL(fileURLWithPath: path))
        for suffix in ["-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
            data += try Data(contentsOf: URL(fileURLWithPath: path + suffix))
        }
        return data
    }

    /// Eve (`user`) with tokens, preferences, a session token, a template choice, a push received
    /// (with a retry logged), a skip, and a push she sent to carol; bob sent carol one too.
    static func fillWithEve(_ store: any RelayStore, app: String = "A", otherApp: String? = "B", user eve: String = "eve")
        async throws
    {
        let eve = eve == "eve" && otherApp == nil ? "eve-7f3a" : eve
        _ = try await store.createUser(app: app, user: eve, nickname: "Eve", profileURL: "https://x/eve.png")
        _ = try await store.registerToken(app: app, user: eve, token: eveToken, isUnique: false)
        _ = try await store.registerToken(app: app, user: "carol", token: hexToken(0xca), isUnique: false)
        if let otherApp { _ = try await store.registerToken(app: otherApp, user: eve, token: eveToken, isUnique: false) }
        _ = try await store.updatePreferences(app: app, user: eve) { $0.pushSound = "eve.caf" }
        _ = try await store.updateChannelPreference(app: app, user: eve, channel: "c-1") { $0.triggerOption = .off }
        try await store.setPushTemplateName(app: app, user: eve, .alternative)
        _ = try await store.addSessionToken(digest: Data(repeating: 0xee, count: 32), app: app, user: eve, expiresAtMs: .max)
        func push(_ user: String, _ token: String, sender: String) -> NewDelivery {
            NewDelivery(
                userID: user, deviceToken: token,
                payload: Data(#"{"aps":{"alert":"hi"},"sendbird":{"sender":{"id":"\#(sender)"},"recipient":{"id":"\#(user)"}}}"#.utf8),
                pushID: UUID(), provider: .apns, pushType: "alert", priority: 10, expiresAtMs: .max)
        }
        #expect(
            try await store.acceptEvent(
                AcceptedEvent(
                    appID: app, messageID: 1, channelURL: "c-1", senderID: "bob", acceptedAtMs: 1,
                    decisions: [RecipientDecisionRecord(userID: eve, decision: .push)], deliveries: [push(eve, eveToken, sender: "bob")])))
        #expect(
            try await store.acceptEvent(
                AcceptedEvent(
                    appID: app, messageID: 2, channelURL: "c-1", senderID: "bob", acceptedAtMs: 2,
                    decisions: [RecipientDecisionRecord(userID: eve, decision: .skip(.doNotDisturb))],
                    deliveries: [push("carol", hexToken(0xca), sender: "bob")])))
        #expect(
            try await store.acceptEvent(
                AcceptedEvent(
                    appID: app, messageID: 3, channelURL: "c-1", senderID: eve, acceptedAtMs: 3, decisions: [],
                    deliveries: [push("carol", hexToken(0xca), sender: eve)])))
        // Eve's push was tried once (a 503, logged) and is due again.
        let claimed = try await store.claimDue(nowMs: 10, limit: 10)
        let hers = try #require(claimed.first { $0.userID == eve })
        try await store.recordOutcomes([
            DeliveryOutcome(
                deliveryID: hers.id, state: .pending, atMs: 10,
                attempt: DeliveryAttempt(atMs: 10, status: 503, reason: "ServiceUnavailable", error: nil, pushID: hers.pushID),
                nextAttemptAtMs: 20)
        ])
        try await store.requeue(ids: claimed.filter { $0.userID != eve }.map(\.id))
    }
}
