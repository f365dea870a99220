import Foundation
import GRDB
import PushCore
import Testing
@testable import PushStore
@testable import StoreContract
@testable import PushStorePostgres

/// The store side of issue 47, on both stores: ids are bytes (two spellings of one name are two
/// users, in the tables, the webhook's read and its cache), a write of one app leaves another
/// app's cached recipients in use, and an erasure that finds nothing writes nothing.
@Suite(.timeLimit(.minutes(5))) struct IdentityAndTenancyTests {
    static let nfc = "caf\u{E9}", nfd = "cafe\u{301}"

    /// Polls `condition` until it holds; the deadline only bounds a failure.
    func waitUntil(_ condition: () async throws -> Bool) async rethrows -> Bool {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            if try await condition() { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return try await condition()
    }

    static func cache(_ store: any RelayStore) throws -> RecipientCache {
        try #require((store as? SQLiteStore)?.recipientCache ?? (store as? PostgresStore)?.recipientCache)
    }

    @Test(arguments: StoreKind.allCases) func lookAlikeIDsAreTwoUsersInTheStoreAndItsCache(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let store = try await db.open()
        _ = try await store.registerToken(app: "A", user: Self.nfc, token: hexToken(1), isUnique: false)
        _ = try await store.registerToken(app: "A", user: Self.nfd, token: hexToken(2), isUnique: false)
        #expect(try await store.tokens(app: "A", user: Self.nfc)?.map(\.token) == [hexToken(1)])
        #expect(try await store.tokens(app: "A", user: Self.nfd)?.map(\.token) == [hexToken(2)])
        // Twice: the second read is served from the cache (PostgreSQL's once it listens).
        for _ in 0..<2 {
            let read = try await store.recipientStatesAndTemplates(app: "A", users: [Self.nfd, Self.nfc], channel: "c")
            #expect(read.states.count == 2)
            #expect(read.states[ExactID(Self.nfc)]?.tokens.map(\.token) == [hexToken(1)])
            #expect(read.states[ExactID(Self.nfd)]?.tokens.map(\.token) == [hexToken(2)])
        }
        // One of them alone, with the other cached: only its own state.
        let alone = try await store.recipientStatesAndTemplates(app: "A", users: [Self.nfc], channel: "c")
        #expect(alone.states.keys.map { Array($0.text.utf8) } == [Array(Self.nfc.utf8)])
        // A token moves between the two as between any two users, and says from whom.
        let moved = try await store.registerToken(app: "A", user: Self.nfc, token: hexToken(2), isUnique: false)
        #expect(moved.previousOwner.map { Array($0.utf8) } == Array(Self.nfd.utf8))
        let refused = await #expect(throws: PushStoreError.self) {
            try await store.registerToken(
                app: "A", user: Self.nfd, token: hexToken(2), isUnique: false, provider: .apns, movesFromOtherUsers: false)
        }
        #expect(refused == .heldByAnotherUser)
        #expect(try await store.owner(app: "A", token: hexToken(2)).map { Array($0.utf8) } == Array(Self.nfc.utf8))
    }

    /// App A's registry writes leave app B's entries current: B's members keep hitting.
    @Test(arguments: StoreKind.allCases) func oneAppsWritesLeaveAnotherAppsCacheInUse(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let store = try await db.open()
        if let postgres = store as? PostgresStore { #expect(await waitUntil { postgres.registry.isListening }) }
        _ = try await store.registerToken(app: "B", user: "b", token: hexToken(1), isUnique: false)
        _ = try await store.recipientStatesAndTemplates(app: "B", users: ["b"], channel: "c")
        let cache = try Self.cache(store)
        // Cached once no notification of B's own write is on its way any more.
        #expect(
            try await waitUntil {
                _ = try await store.recipientStatesAndTemplates(app: "B", users: ["b"], channel: "c")
                return cache.lookUp(app: "B", users: ["b"]).missing.isEmpty
            })
        for n in 0..<5 {
            _ = try await store.registerToken(app: "A", user: "a\(n)", token: hexToken(10 + n), isUnique: false)
            try await store.setPushTemplateName(app: "A", user: "a\(n)", .alternative)
        }
        let before = store.recipientCacheStatistics
        _ = try await store.recipientStatesAndTemplates(app: "B", users: ["b"], channel: "c")
        let after = store.recipientCacheStatistics
        #expect(after.hits == before.hits + 1 && after.misses == before.misses, "\(before) -> \(after)")
        // B's own write does make B's entry stale.
        _ = try await store.registerToken(app: "B", user: "b", token: hexToken(2), isUnique: false)
        #expect(cache.lookUp(app: "B", users: ["b"]).missing == ["b"])
    }

    /// Erasing a user nobody knows is a read: no registry write (the cache's version of the app
    /// stays), and on SQLite no commit at all (another connection's `data_version` is unchanged).
    @Test(arguments: StoreKind.allCases) func erasingAnUnknownUserWritesNothing(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let store = try await db.open()
        let cache = try Self.cache(store)
        let postgres = store as? PostgresStore
        if let postgres { #expect(await waitUntil { postgres.registry.isListening }) }
        let before = cache.version(app: "A")
        _ = try await store.registerToken(app: "A", user: "known", token: hexToken(1), isUnique: false)
        // Two stamps on PostgreSQL, in either order: the commit's own, and its notification's.
        let stamps: UInt64 = postgres == nil ? 1 : 2
        #expect(await waitUntil { cache.version(app: "A").generation >= before.generation + stamps })
        let version = cache.version(app: "A")
        let watcher = try (store as? SQLiteStore).map { try DatabaseQueue(path: $0.path) }
        let dataVersion = try await watcher?.read { try Int.fetchOne($0, sql: "PRAGMA data_version") }
        #expect(try await store.eraseUser(app: "A", user: "nobody") == false)
        #expect(cache.version(app: "A") == version)
        if let watcher { #expect(try await watcher.read { try Int.fetchOne($0, sql: "PRAGMA data_version") } == dataVersion) }
        #expect(try await store.eraseUser(app: "A", user: "known"))
        #expect(cache.version(app: "A").app > version.app, "a real erasure is a registry write")
        try watcher?.close()
    }
}
