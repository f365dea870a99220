import Foundation
import PushCore
import Testing
@testable import PushStore
@testable import StoreContract

@Suite(.timeLimit(.minutes(5))) struct PushStoreBadgesTests {
    static let settings = BadgePushSettings(intervalMs: 5_000, timeToLiveMs: 60_000, provider: .apns)

    static func badgePayloads(_ db: TestDatabase, user: String) async throws -> Int {
        try await db.count(
            "SELECT COUNT(*) FROM deliveries WHERE app_id = 'A' AND message_id = 0 AND user_id = '\(user)' AND state = 'pending'")
    }

    @Test(arguments: StoreKind.allCases) func readsQueueCoalesceAndSkip(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let store = try await db.open()
        _ = try await store.registerToken(app: "A", user: "bob", token: hexToken(1), isUnique: false)
        _ = try await store.registerToken(app: "A", user: "bob", token: hexToken(2), isUnique: false)

        var result = try await store.syncBadges(
            app: "A",
            updates: [BadgeUpdate(userID: "bob", badge: 3, readAtMs: 100), BadgeUpdate(userID: "nobody", badge: 1, readAtMs: 100)],
            nowMs: 1_000, settings: Self.settings)
        #expect(result.queued == 2 && result.noTokens == 1)
        let due = try await store.claimDue(nowMs: 1_000, limit: 10)
        #expect(due.count == 2)
        #expect(due.allSatisfy { $0.pushType == "background" && $0.priority == 5 && $0.messageID == 0 })
        #expect(due.allSatisfy { $0.payload == BadgePayload.data(badge: 3) })
        try await store.recordOutcomes(due.map { DeliveryOutcome(deliveryID: $0.id, state: .sent, atMs: 1_001, attempt: nil) })

        // Within the interval: queued for when it ends; a later read folds into it; the same
        // count, or an older read, changes nothing.
        result = try await store.syncBadges(
            app: "A", updates: [BadgeUpdate(userID: "bob", badge: 2, readAtMs: 200)], nowMs: 2_000, settings: Self.settings)
        #expect(result.queued == 2)
        #expect(try await store.claimDue(nowMs: 5_999, limit: 10).isEmpty, "the interval since the last one")
        result = try await store.syncBadges(
            app: "A", updates: [BadgeUpdate(userID: "bob", badge: 0, readAtMs: 300)], nowMs: 3_000, settings: Self.settings)
        #expect(result.coalesced == 1)
        result = try await store.syncBadges(
            app: "A", updates: [BadgeUpdate(userID: "bob", badge: 0, readAtMs: 400)], nowMs: 3_500, settings: Self.settings)
        #expect(result.unchanged == 1)
        result = try await store.syncBadges(
            app: "A", updates: [BadgeUpdate(userID: "bob", badge: 7, readAtMs: 250)], nowMs: 3_600, settings: Self.settings)
        #expect(result.stale == 1)
        let later = try await store.claimDue(nowMs: 6_000, limit: 10)
        #expect(later.count == 2)
        #expect(later.allSatisfy { $0.payload == BadgePayload.data(badge: 0) }, "the latest count wins")
        #expect(later.allSatisfy { $0.expiresAtMs == 6_000 + 60_000 })
    }

    /// A message push tells the devices a count; a badge push still waiting would undo it.
    @Test(arguments: StoreKind.allCases) func aMessagePushSupersedesAWaitingBadgePush(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let store = try await db.open()
        _ = try await store.registerToken(app: "A", user: "bob", token: hexToken(1), isUnique: false)
        _ = try await store.syncBadges(
            app: "A", updates: [BadgeUpdate(userID: "bob", badge: 1, readAtMs: 100)], nowMs: 1_000, settings: Self.settings)
        _ = try await store.syncBadges(
            app: "A", updates: [BadgeUpdate(userID: "bob", badge: 0, readAtMs: 200)], nowMs: 1_100, settings: Self.settings)
        #expect(try await Self.badgePayloads(db, user: "bob") == 1)

        var event = AcceptedEvent(appID: "A", messageID: 7, channelURL: "c", acceptedAtMs: 1_200, decisions: [], deliveries: [])
        event.badges = BadgeSnapshot(counts: ["bob": 1], atMs: 500)
        #expect(try await store.acceptEvent(event))
        #expect(try await Self.badgePayloads(db, user: "bob") == 0)
        #expect(
            try await db.count("SELECT COUNT(*) FROM deliveries WHERE message_id = 0 AND state = 'failed' AND last_reason = 'Superseded'")
                == 1)
        // A read from before the message is stale; the count the message set is what a new read is compared with.
        var result = try await store.syncBadges(
            app: "A", updates: [BadgeUpdate(userID: "bob", badge: 0, readAtMs: 400)], nowMs: 1_300, settings: Self.settings)
        #expect(result.stale == 1)
        result = try await store.syncBadges(
            app: "A", updates: [BadgeUpdate(userID: "bob", badge: 1, readAtMs: 600)], nowMs: 1_400, settings: Self.settings)
        #expect(result.unchanged == 1)
    }

    /// Only a pending badge push waits: one already claimed goes out with its count, and a new
    /// count gets a push of its own, due after the interval.
    @Test(arguments: StoreKind.allCases) func aClaimedBadgePushTakesNoNewCount(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let store = try await db.open()
        _ = try await store.registerToken(app: "A", user: "bob", token: hexToken(1), isUnique: false)
        _ = try await store.syncBadges(
            app: "A", updates: [BadgeUpdate(userID: "bob", badge: 1, readAtMs: 100)], nowMs: 1_000, settings: Self.settings)
        let inFlight = try await store.claimDue(nowMs: 1_000, limit: 10)
        #expect(inFlight.map(\.payload) == [BadgePayload.data(badge: 1)])
        let result = try await store.syncBadges(
            app: "A", updates: [BadgeUpdate(userID: "bob", badge: 2, readAtMs: 200)], nowMs: 1_100, settings: Self.settings)
        #expect(result.queued == 1 && result.coalesced == 0)
        #expect(try await store.claimDue(nowMs: 5_999, limit: 10).isEmpty, "the interval since the one in flight")
        #expect(try await store.claimDue(nowMs: 6_000, limit: 10).map(\.payload) == [BadgePayload.data(badge: 2)])
    }
}
