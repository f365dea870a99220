import Foundation
import PushCore
import Testing
@testable import PushStore
@testable import StoreContract

/// Test pushes in the delivery log (`recordTestDelivery`), on both stores: logged final and
/// marked, never in the queue, a dead token removed by the dispatcher's rule.
@Suite(.timeLimit(.minutes(5))) struct PushStoreTestDeliveriesTests {
    static let now: Int64 = 1_700_000_000_000

    static func test(
        user: String = "bob", token: String = hexToken(1), provider: PushProvider = .apns, state: DeliveryState = .sent,
        status: Int? = 200, reason: String? = nil, providerMessageID: String? = nil, removal: TokenRemovalRule? = nil
    ) -> TestDelivery {
        let pushID = UUID()
        return TestDelivery(
            appID: "app",
            delivery: NewDelivery(
                userID: user, deviceToken: token, payload: Data(#"{"aps":{"alert":"PushRelay test push"}}"#.utf8), pushID: pushID,
                provider: provider, pushType: provider == .apns ? "alert" : provider.rawValue, priority: 10, expiresAtMs: now + 600_000),
            createdAtMs: now + 10, state: state, atMs: now + 20,
            attempt: DeliveryAttempt(atMs: now + 20, status: status, reason: reason, error: nil, pushID: pushID),
            providerMessageID: providerMessageID, tokenRemoval: removal)
    }

    @Test(arguments: StoreKind.allCases) func aTestPushIsLoggedFinalMarkedAndNeverQueued(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let store = try await db.open(clock: ManualClock(Self.now))
        _ = try await store.registerToken(app: "app", user: "bob", token: hexToken(1), isUnique: false)
        #expect(try await store.acceptEvent(PushStoreDeliveriesTests.event(7)))
        let sent = Self.test(provider: .fcm, providerMessageID: "projects/p/messages/1")
        let recorded = try await store.recordTestDelivery(sent)
        #expect(recorded.tokenRemoved == false)

        #expect(try await store.pendingCount() == 1, "only the message's push waits")
        #expect(try await store.claimDue(nowMs: Self.now + 1_000_000, limit: 10).map(\.messageID) == [7])
        let logged = try #require(try await store.delivery(id: recorded.deliveryID))
        #expect(logged.isTest)
        #expect(logged.delivery.state == .sent && logged.delivery.sentAtMs == Self.now + 20)
        #expect(logged.delivery.messageID == TestDelivery.messageID && logged.delivery.provider == .fcm)
        #expect(logged.delivery.pushID == sent.delivery.pushID && logged.delivery.createdAtMs == Self.now + 10)
        #expect(logged.providerMessageID == "projects/p/messages/1")
        #expect(logged.attempts == [sent.attempt!], "the acceptance, read back from the row")
        let recent = try await store.recentDeliveries(app: "app", user: "bob", limit: 10)
        #expect(recent.map(\.isTest) == [true, false], "newest first; the message's push is no test")
        #expect(try await store.tokens(app: "app", user: "bob")?.count == 1)
    }

    /// A dead token goes as a queued push's would: if it was registered before the provider's
    /// moment (a later registration is a new one), or whenever it was registered.
    @Test(arguments: StoreKind.allCases) func aDeadTokenIsRemovedByTheDispatchersRule(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let store = try await db.open(clock: ManualClock(Self.now))
        _ = try await store.registerToken(app: "app", user: "bob", token: hexToken(1), isUnique: false)
        let fcmToken = "carol-pixel:APA91b" + String(repeating: "Qk", count: 40)
        _ = try await store.registerToken(app: "app", user: "carol", token: fcmToken, isUnique: false, provider: .fcm)

        let early = try await store.recordTestDelivery(
            Self.test(state: .tokenInvalid, status: 410, reason: "Unregistered", removal: .ifRegisteredBefore(Self.now - 1)))
        #expect(!early.tokenRemoved, "registered after the token died: a new registration stays")
        #expect(try await store.tokens(app: "app", user: "bob")?.count == 1)
        let late = try await store.recordTestDelivery(
            Self.test(state: .tokenInvalid, status: 410, reason: "Unregistered", removal: .ifRegisteredBefore(Self.now + 1)))
        #expect(late.tokenRemoved)
        #expect(try await store.tokens(app: "app", user: "bob") == [])
        let logged = try #require(try await store.delivery(id: late.deliveryID))
        #expect(logged.isTest && logged.delivery.state == .tokenInvalid && logged.delivery.lastReason == "Unregistered")
        #expect(logged.attempts.map(\.status) == [410])

        let always = try await store.recordTestDelivery(
            Self.test(
                user: "carol", token: fcmToken, provider: .fcm, state: .tokenInvalid, status: 400, reason: "INVALID_ARGUMENT",
                removal: .always))
        #expect(always.tokenRemoved)
        #expect(try await store.tokens(app: "app", user: "carol") == [])
        // Another app's token of the same bytes is not this app's to remove.
        _ = try await store.registerToken(app: "other", user: "bob", token: hexToken(1), isUnique: false)
        var elsewhere = Self.test(state: .tokenInvalid, status: 400, reason: "BadDeviceToken", removal: .always)
        elsewhere.appID = "app"
        #expect(try await store.recordTestDelivery(elsewhere).tokenRemoved == false)
        #expect(try await store.tokens(app: "other", user: "bob")?.count == 1)
    }

    /// Logged under no user when nobody holds the token; pruned with the rest of the log.
    @Test(arguments: StoreKind.allCases) func testPushesArePrunedLikeTheRestOfTheLog(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let store = try await db.open(clock: ManualClock(Self.now))
        let nobody = try await store.recordTestDelivery(Self.test(user: "", state: .failed, status: nil))
        #expect(try await store.delivery(id: nobody.deliveryID)?.isTest == true)
        #expect(try await store.prune(olderThanMs: Self.now + 1_000) == 1)
        #expect(try await store.delivery(id: nobody.deliveryID) == nil)
    }
}
