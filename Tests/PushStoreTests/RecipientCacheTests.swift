import Foundation
import PushCore
import Testing
@testable import PushStore
@testable import StoreContract
@testable import PushStorePostgres

/// The webhook's recipient cache must never serve state older than the last committed write.
@Suite(.timeLimit(.minutes(5))) struct RecipientCacheTests {
    func read(_ store: any RelayStore, channel: String = "c") async throws -> (
        states: [ExactID: RecipientPushState], templates: [PushTemplateName: PushMessageTemplate]
    ) {
        try await store.recipientStatesAndTemplates(app: "A", users: ["u", "v", "ghost"], channel: channel)
    }

    @Test(arguments: StoreKind.allCases) func everyRegistryWriteIsSeenByTheNextRead(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let store = try await db.open()
        _ = try await store.registerToken(app: "A", user: "u", token: hexToken(1), isUnique: false)
        #expect(try await read(store).states["u"]?.tokens.map(\.token) == [hexToken(1)])
        #expect(try await read(store).states["ghost"] == nil)

        _ = try await store.registerToken(app: "A", user: "u", token: hexToken(2), isUnique: false)
        #expect(try await read(store).states["u"]?.tokens.map(\.token) == [hexToken(1), hexToken(2)])

        _ = try await store.registerToken(app: "A", user: "ghost", token: hexToken(3), isUnique: false)
        #expect(try await read(store).states["ghost"]?.tokens.map(\.token) == [hexToken(3)], "a user created after a miss")

        try await store.updatePreferences(app: "A", user: "u") { $0.pushTriggerOption = .off }
        #expect(try await read(store).states["u"]?.preferences.pushTriggerOption == .off)

        try await store.updateChannelPreference(app: "A", user: "u", channel: "c") { $0.triggerOption = .mentionOnly }
        #expect(try await read(store).states["u"]?.channelPreference.triggerOption == .mentionOnly)
        #expect(try await read(store, channel: "other").states["u"]?.channelPreference == .defaults)

        try await store.setPushTemplateName(app: "A", user: "u", .alternative)
        #expect(try await read(store).states["u"]?.templateName == .alternative)

        try await store.updateMessageTemplate(app: "A", name: .default, startingFrom: .sendbirdDefault(for: .default)) {
            $0.mesg = "{sender_name} says {message}"
        }
        #expect(try await read(store).templates[.default]?.mesg == "{sender_name} says {message}")

        _ = try await store.resetPreferences(app: "A", user: "u")
        #expect(try await read(store).states["u"]?.preferences == .defaults)

        try await store.removeToken(app: "A", user: "u", token: hexToken(1))
        #expect(try await read(store).states["u"]?.tokens.map(\.token) == [hexToken(2)])

        _ = try await store.removeAllTokens(app: "A", user: "u")
        #expect(try await read(store).states["u"]?.tokens == [])
    }

    /// A token removed by the dispatcher (APNs said it is dead) is not pushed to again.
    @Test(arguments: StoreKind.allCases) func aTokenRemovedByAnOutcomeIsSeenByTheNextRead(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let store = try await db.open()
        _ = try await store.registerToken(app: "A", user: "u", token: hexToken(1), isUnique: false)
        _ = try await store.acceptEvent(
            AcceptedEvent(
                appID: "A", messageID: 1, channelURL: "c", acceptedAtMs: 1, decisions: [],
                deliveries: [
                    NewDelivery(
                        userID: "u", deviceToken: hexToken(1), payload: Data("{}".utf8), pushID: UUID(),
                        provider: .apns, pushType: "alert", priority: 10, expiresAtMs: .max)
                ]))
        #expect(try await read(store).states["u"]?.tokens.count == 1)
        let delivery = try #require(try await store.claimDue(nowMs: .max, limit: 1).first)
        try await store.recordOutcomes([
            DeliveryOutcome(
                deliveryID: delivery.id, state: .tokenInvalid, atMs: 2, attempt: nil,
                tokenRemoval: .always)
        ])
        #expect(try await read(store).states["u"]?.tokens == [])
    }

    /// Reading again users the cache already holds replaces them: a full cache drops nothing for it.
    @Test func usersAlreadyHeldDoNotOverflowAFullCache() {
        let cache = RecipientCache(capacity: 8)
        let entry = RecipientCache.UserEntry(state: nil, channelPreferences: [:])
        let users = Dictionary(uniqueKeysWithValues: (0..<8).map { (ExactID("u\($0)"), entry) })
        cache.store(app: "A", users: users.filter { $0.key.description < "u2" }, templates: nil, version: cache.version(app: "A"))
        for _ in 0..<3 { cache.store(app: "A", users: users, templates: nil, version: cache.version(app: "A")) }
        #expect(cache.lookUp(app: "A", users: (0..<8).map { "u\($0)" }).missing.isEmpty)
        cache.store(app: "A", users: ["u7": entry], templates: nil, version: cache.version(app: "A"))
        #expect(cache.lookUp(app: "A", users: (0..<8).map { "u\($0)" }).missing.isEmpty)
    }

    /// Full, the cache drops a quarter and keeps the rest: a working set the size of the capacity
    /// mostly hits, where starting over made every user miss again.
    @Test func aFullCacheKeepsThreeQuartersOfWhatItHeld() {
        let cache = RecipientCache(capacity: 100)
        let entry = RecipientCache.UserEntry(state: nil, channelPreferences: [:])
        // Read twice: past a quarter full, a user is kept on their second read.
        for _ in 0..<2 {
            for n in 0..<100 { cache.store(app: "A", users: ["u\(n)": entry], templates: nil, version: cache.version(app: "A")) }
        }
        #expect(cache.lookUp(app: "A", users: (0..<100).map { "u\($0)" }).missing.isEmpty)
        cache.store(app: "A", users: ["new": entry], templates: nil, version: cache.version(app: "A"))
        cache.store(app: "A", users: ["new": entry], templates: nil, version: cache.version(app: "A"))
        let after = cache.lookUp(app: "A", users: (0..<100).map { "u\($0)" } + ["new"])
        #expect(after.found.count == 75)
        #expect(after.found["new"] != nil)
        // A batch larger than the whole cache is not kept, and does not empty it.
        let huge = Dictionary(uniqueKeysWithValues: (0..<101).map { (ExactID("h\($0)"), entry) })
        cache.store(app: "A", users: huge, templates: nil, version: cache.version(app: "A"))
        #expect(cache.lookUp(app: "A", users: ["new"]).found.count == 1)
    }

    /// The byte bound evicts too, and what is dropped is spread over the whole table (the users
    /// kept are not one run of it): of 400 users stored in order, survivors come from every
    /// hundred.
    @Test func theByteBoundEvictsSpreadOverTheTable() {
        let entry = RecipientCache.UserEntry(state: nil, channelPreferences: [:])
        let cache = RecipientCache(capacity: 10_000, byteCapacity: 100 * entry.approximateBytes)
        for n in 0..<400 {
            for _ in 0..<2 { cache.store(app: "A", users: ["u\(n)": entry], templates: nil, version: cache.version(app: "A")) }
        }
        let kept = cache.lookUp(app: "A", users: (0..<400).map { "u\($0)" }).found
        #expect(kept.count <= 100 && kept.count >= 60, "\(kept.count)")
        #expect(kept["u399"] != nil, "the newest is stored after the eviction it caused")
        let hundreds = Set(kept.keys.compactMap { Int($0.text.dropFirst()) }.map { $0 / 100 })
        #expect(hundreds == [0, 1, 2, 3] || hundreds.count >= 3, "\(hundreds)")
    }
}

/// Past a quarter of its bounds the cache keeps a user on their second read: members read once
/// in a long while (a million registered users, members drawn from all of them) do not fill it.
@Suite(.timeLimit(.minutes(5))) struct RecipientCacheAdmissionTests {
    let entry = RecipientCache.UserEntry(state: nil, channelPreferences: [:])

    func held(_ cache: RecipientCache, _ users: [String]) -> Int {
        cache.lookUp(app: "A", users: users).found.count
    }

    @Test func belowAQuarterEveryReadIsKeptAndPastItTheSecondOne() {
        let cache = RecipientCache(capacity: 100)
        for n in 0..<25 { cache.store(app: "A", users: ["u\(n)": entry], templates: nil, version: cache.version(app: "A")) }
        #expect(held(cache, (0..<25).map { "u\($0)" }) == 25, "there is room: kept on the first read")
        cache.store(app: "A", users: ["once": entry, "twice": entry], templates: nil, version: cache.version(app: "A"))
        #expect(held(cache, ["once", "twice"]) == 0)
        cache.store(app: "A", users: ["twice": entry], templates: nil, version: cache.version(app: "A"))
        #expect(held(cache, ["once", "twice"]) == 1)
        #expect(cache.lookUp(app: "A", users: ["twice"]).found["twice"] != nil)
    }

    /// Members drawn from ten times as many users as the cache holds, each read once: the cache
    /// stays near a quarter full (plus the doorkeeper's few false positives, about 2 % of the
    /// rest) instead of filling with entries never used again.
    @Test func usersReadOnceDoNotFillIt() {
        let cache = RecipientCache(capacity: 1_000)
        for n in 0..<10_000 { cache.store(app: "A", users: ["u\(n)": entry], templates: nil, version: cache.version(app: "A")) }
        #expect(cache.statistics.users >= 250 && cache.statistics.users < 500, "\(cache.statistics.users)")
        // A working set read again and again is kept, past the quarter. Three reads: the
        // doorkeeper may forget everything between a member's first and second (it clears every
        // 1,000 marks), but not again before the third (400 members make 400 marks at most).
        for _ in 0..<3 {
            for n in 0..<400 { cache.store(app: "A", users: ["hot\(n)": entry], templates: nil, version: cache.version(app: "A")) }
        }
        #expect(held(cache, (0..<400).map { "hot\($0)" }) == 400)
    }

    /// A registry write makes the app's entries stale but does not clear the doorkeeper's memory
    /// of who comes back.
    @Test func aUserSeenBeforeARegistryWriteIsKeptOnTheNextReadAfterIt() {
        let cache = RecipientCache(capacity: 100)
        for n in 0..<25 { cache.store(app: "A", users: ["u\(n)": entry], templates: nil, version: cache.version(app: "A")) }
        cache.store(app: "A", users: ["late": entry], templates: nil, version: cache.version(app: "A"))
        #expect(held(cache, ["late"]) == 0, "a quarter full: refused on its first read")
        cache.invalidate(app: "A")
        #expect(held(cache, (0..<25).map { "u\($0)" }) == 0, "stale")
        cache.store(app: "A", users: ["late": entry], templates: nil, version: cache.version(app: "A"))
        #expect(held(cache, ["late"]) == 1)
    }

    /// A write of one app leaves the others' entries in use (one tenant's REST traffic used to
    /// empty every tenant's cache), and a version read before a write is refused for filing.
    @Test func aWriteOfOneAppLeavesTheOthersEntries() {
        let cache = RecipientCache(capacity: 100)
        cache.store(app: "A", users: ["a": entry], templates: nil, version: cache.version(app: "A"))
        cache.store(app: "B", users: ["b": entry], templates: nil, version: cache.version(app: "B"))
        let readBeforeTheWrite = cache.version(app: "A")
        cache.invalidate(app: "A")
        #expect(cache.lookUp(app: "A", users: ["a"]).found.isEmpty)
        #expect(cache.lookUp(app: "B", users: ["b"]).found.count == 1)
        cache.store(app: "A", users: ["a": entry], templates: nil, version: readBeforeTheWrite)
        #expect(cache.lookUp(app: "A", users: ["a"]).found.isEmpty, "read before the write: not filed")
        cache.invalidateAll()
        #expect(cache.lookUp(app: "B", users: ["b"]).found.isEmpty, "a write of unknown apps: nothing current")
    }

    /// Keys are bytes: a user whose id is another's NFD spelling is another entry.
    @Test func canonicallyEqualIdsAreDifferentEntries() {
        let cache = RecipientCache(capacity: 100)
        let nfd = RecipientCache.UserEntry(
            state: RecipientPushState(
                userID: "cafe\u{301}", tokens: [DeviceToken(token: "t", registeredAtMs: 1)], preferences: .defaults,
                channelPreference: .defaults, templateName: .default), channelPreferences: [:])
        cache.store(app: "A", users: ["cafe\u{301}": nfd], templates: nil, version: cache.version(app: "A"))
        let looked = cache.lookUp(app: "A", users: ["caf\u{e9}"])
        #expect(looked.found.isEmpty)
        #expect(looked.missing == ["caf\u{e9}"])
    }
}

/// `PushStoreConfiguration`'s cache bounds reach the cache of either store, and 0 users turns
/// it off.
@Suite(.timeLimit(.minutes(5))) struct RecipientCacheBoundsTests {
    @Test(arguments: StoreKind.allCases) func theStoreUsesTheConfiguredBounds(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let store = try await db.open(configuration: PushStoreConfiguration(recipientCacheUsers: 7, recipientCacheBytes: 12_345))
        let cache = try #require((store as? SQLiteStore)?.recipientCache ?? (store as? PostgresStore)?.recipientCache)
        #expect(cache.capacity == 7)
        #expect(cache.byteCapacity == 12_345)
    }

    /// A change made behind the store's back (hand-run SQL: no registry write, so nothing
    /// invalidates the cache) shows what the cache does: with it the old state is served, without
    /// it every read goes to the database.
    @Test func withoutACacheEveryReadGoesToTheDatabase() async throws {
        for (users, expected) in [(PushStoreConfiguration.defaultRecipientCacheUsers, [hexToken(1)]), (0, [])] {
            let db = try TemporaryDatabase()
            let store = try db.open(configuration: PushStoreConfiguration(recipientCacheUsers: users))
            _ = try await store.registerToken(app: "A", user: "u", token: hexToken(1), isUnique: false)
            // What the webhook reads (`recipientStatesAndTemplates`; the REST API reads the tables).
            #expect(try store.recipientStatesAndTemplates(app: "A", users: ["u"], channel: "c").states["u"]?.tokens.count == 1)
            try await store.pool.write { try $0.execute(sql: "DELETE FROM device_tokens") }
            let tokens = try store.recipientStatesAndTemplates(app: "A", users: ["u"], channel: "c").states["u"]?.tokens.map(\.token)
            #expect(tokens == expected, "a cache of \(users) users")
        }
    }
}

/// What `/metrics` reports about the cache: members served from it and read from the database.
@Suite(.timeLimit(.minutes(5))) struct RecipientCacheStatisticsTests {
    @Test func hitsAndMissesAreCounted() async throws {
        let db = try TemporaryDatabase()
        let store = try db.open()
        _ = try await store.registerToken(app: "A", user: "u", token: hexToken(1), isUnique: false)
        let read = { _ = try store.recipientStatesAndTemplates(app: "A", users: ["u", "v", "ghost"], channel: "c") }
        try read()
        #expect(store.recipientCacheStatistics.misses == 3)
        #expect(store.recipientCacheStatistics.hits == 0)
        try read()
        #expect(store.recipientCacheStatistics.hits == 3, "unknown users are cached too")
        #expect(store.recipientCacheStatistics.users == 3)
        #expect(store.recipientCacheStatistics.bytes > 0)
        // A registry write empties the cache in effect: the next read misses again.
        _ = try await store.registerToken(app: "A", user: "v", token: hexToken(2), isUnique: false)
        try read()
        #expect(
            store.recipientCacheStatistics
                == RecipientCacheStatistics(hits: 3, misses: 6, users: 3, bytes: store.recipientCacheStatistics.bytes))
    }

    /// On PostgreSQL too every member looked up is counted once, as a hit or a miss (a miss also
    /// while the registry listener is not up and the cache is bypassed).
    @Test(arguments: StoreKind.allCases) func everyLookupIsCountedOnce(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let store = try await db.open()
        _ = try await store.registerToken(app: "A", user: "u", token: hexToken(1), isUnique: false)
        for _ in 0..<4 { _ = try await store.recipientStatesAndTemplates(app: "A", users: ["u", "v"], channel: "c") }
        let statistics = store.recipientCacheStatistics
        #expect(statistics.hits + statistics.misses == 8, "\(statistics)")
        #expect(statistics.misses >= 2)
    }
}

/// The cache's own bookkeeping, without a store.
@Suite(.timeLimit(.minutes(5))) struct RecipientCacheUnitTests {
    /// An app's templates are kept even when its users are not (a cache of 0 users, or a batch
    /// over the bounds), so turning the member cache off does not read templates per event.
    @Test func templatesAreKeptWhenUsersAreNot() {
        let cache = RecipientCache(capacity: 0, byteCapacity: 1 << 20)
        let templates: [PushTemplateName: PushMessageTemplate] = [.default: .sendbirdDefault(for: .default)]
        let entry = RecipientCache.UserEntry(state: nil, channelPreferences: [:])
        cache.store(app: "A", users: ["u": entry], templates: templates, version: cache.version(app: "A"))
        let looked = cache.lookUp(app: "A", users: ["u"])
        #expect(looked.missing == ["u"])
        #expect(looked.templates == templates)
        #expect(cache.statistics == RecipientCacheStatistics(hits: 0, misses: 1, users: 0, bytes: 0))
    }
}
