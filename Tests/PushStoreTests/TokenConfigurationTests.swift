import Foundation
import PushCore
import Testing
@testable import PushStore
@testable import StoreContract

/// A token's provider configuration (`device_tokens.configuration`): registered by name, kept
/// across the SDK's re-registration, read by the webhook and by a claim, and moved by an outcome.
@Suite(.timeLimit(.minutes(5))) struct TokenConfigurationTests {
    @Test(arguments: StoreKind.allCases) func aRegisteredConfigurationSurvivesARegistrationWithoutOne(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let store = try await db.open()
        let named = try await store.registerToken(
            app: "A", user: "u", token: hexToken(1), isUnique: false, provider: .apns, movesFromOtherUsers: true,
            configuration: "debug")
        #expect(named.token.configuration == "debug")
        _ = try await store.registerToken(app: "A", user: "u", token: hexToken(2), isUnique: false)
        // The SDK registers again at each launch, naming none: the token stays the debug build's.
        let again = try await store.registerToken(app: "A", user: "u", token: hexToken(1), isUnique: false)
        #expect(again.token.configuration == "debug")
        #expect(try await store.tokens(app: "A", user: "u")?.map(\.configuration) == [nil, "debug"])
        // Moving to another user keeps the device's configuration too.
        _ = try await store.registerToken(app: "A", user: "v", token: hexToken(1), isUnique: false)
        #expect(try await store.tokens(app: "A", user: "v")?.map(\.configuration) == ["debug"])
        // Naming one replaces it.
        _ = try await store.registerToken(
            app: "A", user: "v", token: hexToken(1), isUnique: false, provider: .apns, movesFromOtherUsers: true,
            configuration: "production")
        #expect(try await store.tokens(app: "A", user: "v")?.map(\.configuration) == ["production"])
    }

    @Test(arguments: StoreKind.allCases) func theWebhookAndAClaimReadTheTokensConfiguration(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let store = try await db.open()
        _ = try await store.registerToken(app: "app", user: "bob", token: hexToken(1), isUnique: false)
        _ = try await store.registerToken(
            app: "app", user: "bob", token: hexToken(2), isUnique: false, provider: .apns, movesFromOtherUsers: true,
            configuration: "debug")
        let state = try #require(try await store.recipientStates(app: "app", users: ["bob"], channel: "c1")["bob"])
        #expect(state.tokens.map(\.configuration) == [nil, "debug"])

        var event = PushStoreDeliveriesTests.event(1, users: ["bob", "bob"])
        event.decisions = [RecipientDecisionRecord(userID: "bob", decision: .push)]
        #expect(try await store.acceptEvent(event))
        let claimed = try await store.claimDue(nowMs: 1_700_000_000_000, limit: 10)
        #expect(claimed.map(\.deviceToken) == [hexToken(1), hexToken(2)])
        #expect(claimed.map(\.configuration) == [nil, "debug"])

        // Delivered through the sandbox configuration: the first token moves there, and the
        // webhook's next read (its cache invalidated) sees it.
        let first = try #require(claimed.first)
        try await store.recordOutcomes([
            DeliveryOutcome(
                deliveryID: first.id, state: .sent, atMs: 1_700_000_000_100,
                attempt: DeliveryAttempt(
                    atMs: 1_700_000_000_100, status: 200, reason: nil, error: "sent through \"sandbox\"", pushID: first.pushID),
                tokenConfiguration: "sandbox")
        ])
        #expect(try await store.tokens(app: "app", user: "bob")?.map(\.configuration) == ["sandbox", "debug"])
        let (states, _) = try await store.recipientStatesAndTemplates(app: "app", users: ["bob"], channel: "c1")
        #expect(states["bob"]?.tokens.map(\.configuration) == ["sandbox", "debug"])
        let logged = try #require(try await store.deliveryLog(app: "app", messageID: 1, user: "bob").deliveries.first)
        #expect(logged.delivery.state == .sent)
        #expect(logged.attempts.map(\.error) == ["sent through \"sandbox\""])
    }
}
