import PushCore
import Testing
@testable import PushStore
@testable import StoreContract

@Suite(.timeLimit(.minutes(5))) struct PushStoreDeviceTokensTests {
    @Test(arguments: StoreKind.allCases) func registeringCreatesTheUserAndStampsTheTime(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let clock = ManualClock(1_000)
        let store = try await db.open(clock: clock)
        #expect(try await store.userExists(app: "A", user: "u") == false)
        #expect(try await store.tokens(app: "A", user: "u") == nil)

        let registration = try await store.registerToken(app: "A", user: "u", token: hexToken(1), isUnique: false)
        #expect(
            registration
                == TokenRegistration(token: DeviceToken(token: hexToken(1), registeredAtMs: 1_000), previousOwner: nil, removedTokens: []))
        #expect(try await store.userExists(app: "A", user: "u"))
        #expect(try await store.tokens(app: "A", user: "u") == [DeviceToken(token: hexToken(1), registeredAtMs: 1_000)])
    }

    @Test(arguments: StoreKind.allCases) func reRegisteringRefreshesTheTimeWithoutDuplicating(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let clock = ManualClock(1_000)
        let store = try await db.open(clock: clock)
        _ = try await store.registerToken(app: "A", user: "u", token: hexToken(1), isUnique: false)
        clock.advance(by: 10)
        _ = try await store.registerToken(app: "A", user: "u", token: hexToken(2), isUnique: false)
        clock.advance(by: 10)
        let again = try await store.registerToken(app: "A", user: "u", token: hexToken(1), isUnique: false)
        #expect(again.previousOwner == nil)
        #expect(
            try await store.tokens(app: "A", user: "u") == [
                DeviceToken(token: hexToken(2), registeredAtMs: 1_010),
                DeviceToken(token: hexToken(1), registeredAtMs: 1_020),
            ])
    }

    @Test(arguments: StoreKind.allCases) func aTokenOfAnotherUserMovesToTheNewUser(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let store = try await db.open()
        _ = try await store.registerToken(app: "A", user: "alice", token: hexToken(1), isUnique: false)
        let moved = try await store.registerToken(app: "A", user: "bob", token: hexToken(1), isUnique: false)
        #expect(moved.previousOwner == "alice")
        #expect(try await store.owner(app: "A", token: hexToken(1)) == "bob")
        #expect(try await store.tokens(app: "A", user: "alice") == [])
    }

    @Test(arguments: StoreKind.allCases) func isUniqueRemovesTheUsersOtherTokensOnly(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let store = try await db.open()
        for n in 1...3 { _ = try await store.registerToken(app: "A", user: "u", token: hexToken(n), isUnique: false) }
        _ = try await store.registerToken(app: "A", user: "other", token: hexToken(9), isUnique: false)
        let unique = try await store.registerToken(app: "A", user: "u", token: hexToken(2), isUnique: true)
        #expect(unique.removedTokens == [hexToken(1), hexToken(3)])
        #expect(try await store.tokens(app: "A", user: "u")?.map(\.token) == [hexToken(2)])
        #expect(try await store.tokens(app: "A", user: "other")?.map(\.token) == [hexToken(9)])
    }

    /// Tokens registered in the same millisecond still evict in registration order.
    @Test(arguments: StoreKind.allCases) func theOldestTokensAreEvictedBeyondTheLimit(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let clock = ManualClock()
        let store = try await db.open(clock: clock)
        for n in 1...20 { _ = try await store.registerToken(app: "A", user: "u", token: hexToken(n), isUnique: false) }
        let twentyFirst = try await store.registerToken(app: "A", user: "u", token: hexToken(21), isUnique: false)
        #expect(twentyFirst.removedTokens == [hexToken(1)])
        // Re-registering token 2 makes it the newest, so 3 is the next to go.
        _ = try await store.registerToken(app: "A", user: "u", token: hexToken(2), isUnique: false)
        let next = try await store.registerToken(app: "A", user: "u", token: hexToken(22), isUnique: false)
        #expect(next.removedTokens == [hexToken(3)])
        let tokens = try #require(try await store.tokens(app: "A", user: "u")).map(\.token)
        #expect(tokens.count == 20)
        #expect(tokens.suffix(2) == [hexToken(2), hexToken(22)])
    }

    /// FCM tokens have their own cap and `is_unique`; lookups, removal and the webhook's read
    /// carry the provider.
    @Test(arguments: StoreKind.allCases) func fcmTokensAreCountedApartFromAPNsTokens(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let store = try await db.open(configuration: PushStoreConfiguration(maximumTokensPerUser: 2))
        func fcm(_ n: Int) -> String { "fcm-\(n):" + String(repeating: "Ab", count: 40) }
        for n in 1...2 { _ = try await store.registerToken(app: "A", user: "u", token: hexToken(n), isUnique: false) }
        for n in 1...3 { _ = try await store.registerToken(app: "A", user: "u", token: fcm(n), isUnique: false, provider: .fcm) }
        var tokens = try #require(try await store.tokens(app: "A", user: "u"))
        #expect(tokens.filter { $0.provider == .apns }.map(\.token) == [hexToken(1), hexToken(2)])
        #expect(tokens.filter { $0.provider == .fcm }.map(\.token) == [fcm(2), fcm(3)])
        let unique = try await store.registerToken(app: "A", user: "u", token: fcm(4), isUnique: true, provider: .fcm)
        #expect(unique.removedTokens == [fcm(2), fcm(3)])
        #expect(unique.token.provider == .fcm)
        tokens = try #require(try await store.tokens(app: "A", user: "u"))
        #expect(tokens.map(\.token) == [hexToken(1), hexToken(2), fcm(4)])
        #expect(try await store.owner(app: "A", token: fcm(4), provider: .fcm) == "u")
        #expect(try await store.owner(app: "A", token: fcm(4)) == nil, "not an APNs token")
        #expect(try await store.removeToken(app: "A", user: "u", token: fcm(4)) == false)
        let states = try await store.recipientStates(app: "A", users: ["u"], channel: "c")
        #expect(states["u"]?.tokens.map(\.provider) == [.apns, .apns, .fcm])
        #expect(try await store.removeTokenFromOwner(app: "A", token: fcm(4), provider: .fcm) == "u")
    }

    @Test(arguments: StoreKind.allCases) func theLimitIsConfigurable(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let store = try await db.open(configuration: PushStoreConfiguration(maximumTokensPerUser: 2))
        for n in 1...3 { _ = try await store.registerToken(app: "A", user: "u", token: hexToken(n), isUnique: false) }
        #expect(try await store.tokens(app: "A", user: "u")?.map(\.token) == [hexToken(2), hexToken(3)])
    }

    @Test(arguments: StoreKind.allCases) func removeOneAllAndFromOwner(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let store = try await db.open()
        for n in 1...3 { _ = try await store.registerToken(app: "A", user: "u", token: hexToken(n), isUnique: false) }
        #expect(try await store.removeToken(app: "A", user: "u", token: hexToken(1)))
        #expect(try await store.removeToken(app: "A", user: "u", token: hexToken(1)) == false)
        #expect(try await store.removeToken(app: "A", user: "someone-else", token: hexToken(2)) == false)
        #expect(try await store.removeTokenFromOwner(app: "A", token: hexToken(2)) == "u")
        #expect(try await store.removeTokenFromOwner(app: "A", token: hexToken(2)) == nil)
        #expect(try await store.owner(app: "A", token: hexToken(2)) == nil)
        #expect(try await store.removeAllTokens(app: "A", user: "u") == [hexToken(3)])
        #expect(try await store.tokens(app: "A", user: "u") == [])
        // The user stays known after losing all tokens.
        #expect(try await store.userExists(app: "A", user: "u"))
    }

    /// APNs 410: remove only if the token was registered before the 410's timestamp.
    @Test(arguments: StoreKind.allCases) func removeIfRegisteredBefore(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let clock = ManualClock(5_000)
        let store = try await db.open(clock: clock)
        _ = try await store.registerToken(app: "A", user: "u", token: hexToken(1), isUnique: false)
        #expect(try await store.removeToken(app: "A", token: hexToken(1), ifRegisteredBefore: 5_000) == false)
        #expect(try await store.removeToken(app: "A", token: hexToken(1), ifRegisteredBefore: 4_000) == false)
        #expect(try await store.owner(app: "A", token: hexToken(1)) == "u")
        #expect(try await store.removeToken(app: "A", token: hexToken(1), ifRegisteredBefore: 5_001))
        #expect(try await store.owner(app: "A", token: hexToken(1)) == nil)
        #expect(try await store.removeToken(app: "B", token: hexToken(1), ifRegisteredBefore: .max) == false)
    }
}
