import Foundation
import Testing
@testable import PushStore
@testable import StoreContract

/// Session tokens and secondary API tokens in a real database. The store is handed digests
/// only; these tests use arbitrary bytes for them.
@Suite(.timeLimit(.minutes(5))) struct PushStoreCredentialsTests {
    static func digest(_ n: UInt8) -> Data { Data(repeating: n, count: 32) }

    @Test(arguments: StoreKind.allCases) func aSessionTokenIsFoundByItsDigestWithItsAppUserAndExpiry(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let clock = ManualClock()
        let store = try await db.open(clock: clock)
        let stored = try await store.addSessionToken(
            digest: Self.digest(1), app: "A", user: "alice", expiresAtMs: clock.milliseconds + 1000)
        #expect(
            stored
                == StoredSessionToken(
                    app: "A", user: "alice", createdAtMs: clock.milliseconds, expiresAtMs: clock.milliseconds + 1000,
                    issuer: "test-issuer"))
        #expect(try await store.sessionToken(digest: Self.digest(1)) == stored)
        #expect(try await store.sessionToken(digest: Self.digest(2)) == nil)
        // What is stored: the digest, who it speaks for and who issued it, nothing else.
        let columns = try await db.columns(of: "session_tokens")
        #expect(columns == ["token_digest", "app_id", "user_id", "created_at", "expires_at", "issuer"])
        #expect(stored.isExpired(atMs: clock.milliseconds + 999) == false)
        #expect(stored.isExpired(atMs: clock.milliseconds + 1000))
        // The maximum lifetime bounds it whatever `expires_at` says.
        #expect(stored.isExpired(atMs: clock.milliseconds + 500, maximumLifetimeMs: 500))
    }

    @Test(arguments: StoreKind.allCases) func issuingDropsTheUsersExpiredTokensAndKeepsTheNewestHundred(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let clock = ManualClock()
        let store = try await db.open(clock: clock)
        try await store.addSessionToken(digest: Self.digest(1), app: "A", user: "alice", expiresAtMs: clock.milliseconds + 10)
        try await store.addSessionToken(digest: Self.digest(2), app: "A", user: "bob", expiresAtMs: clock.milliseconds + 10)
        clock.advance(by: 10)
        try await store.addSessionToken(digest: Self.digest(3), app: "A", user: "alice", expiresAtMs: clock.milliseconds + 10)
        #expect(try await store.sessionToken(digest: Self.digest(1)) == nil)
        // Another user's expired token waits for that user's next issue (it is refused anyway).
        #expect(try await store.sessionToken(digest: Self.digest(2)) != nil)

        for n in 0..<StoredSessionToken.maximumPerUser {
            clock.advance(by: 1)
            try await store.addSessionToken(
                digest: Data(repeating: UInt8(n), count: 31) + [0xff], app: "A", user: "carol",
                expiresAtMs: clock.milliseconds + 1_000_000)
        }
        clock.advance(by: 1)
        try await store.addSessionToken(digest: Self.digest(200), app: "A", user: "carol", expiresAtMs: clock.milliseconds + 1_000_000)
        let count = try await db.count("SELECT COUNT(*) FROM session_tokens WHERE user_id = 'carol'")
        #expect(count == StoredSessionToken.maximumPerUser)
        #expect(try await store.sessionToken(digest: Data(repeating: 0, count: 31) + [0xff]) == nil, "the oldest went")
        #expect(try await store.sessionToken(digest: Self.digest(200)) != nil)
    }

    @Test(arguments: StoreKind.allCases) func revokingRemovesAllOfOneUsersTokensInOneApp(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let store = try await db.open()
        for (n, (app, user)) in [("A", "alice"), ("A", "alice"), ("A", "bob"), ("B", "alice")].enumerated() {
            try await store.addSessionToken(digest: Self.digest(UInt8(n)), app: app, user: user, expiresAtMs: .max)
        }
        #expect(try await store.revokeSessionTokens(app: "A", user: "alice") == 2)
        #expect(try await store.revokeSessionTokens(app: "A", user: "alice") == 0)
        #expect(try await store.sessionToken(digest: Self.digest(0)) == nil)
        #expect(try await store.sessionToken(digest: Self.digest(1)) == nil)
        #expect(try await store.sessionToken(digest: Self.digest(2))?.user == "bob")
        #expect(try await store.sessionToken(digest: Self.digest(3))?.app == "B")
    }

    @Test(arguments: StoreKind.allCases) func apiTokensAreBoundedListedRemovedAndReadBackAfterReopening(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let clock = ManualClock()
        do {
            let store = try await db.open(clock: clock)
            let first = try #require(try await store.addAPIToken(app: "A", digest: Self.digest(1), prefix: "ab12", limit: 2))
            clock.advance(by: 1)
            let second = try #require(try await store.addAPIToken(app: "A", digest: Self.digest(2), prefix: "ab12", limit: 2))
            #expect(try await store.addAPIToken(app: "A", digest: Self.digest(3), prefix: "cd34", limit: 2) == nil)
            #expect(try await store.addAPIToken(app: "B", digest: Self.digest(4), prefix: "ef56", limit: 2) != nil)
            #expect(try await store.apiTokens(app: "A") == [first, second])

            #expect(try await store.removeAPIToken(app: "A", .prefix("ab12")) == .ambiguous(2))
            #expect(try await store.removeAPIToken(app: "A", .prefix("zzzz")) == .notFound)
            #expect(try await store.removeAPIToken(app: "B", .digest(Self.digest(1))) == .notFound)
            #expect(try await store.removeAPIToken(app: "A", .digest(Self.digest(1))) == .removed(first))
            #expect(try await store.removeAPIToken(app: "A", .prefix("ab12")) == .removed(second))
        }
        let reopened = try await db.open(clock: clock)
        #expect(try await reopened.allAPITokens().map(\.app) == ["B"])
    }

    /// "Revoke every session" on a fleet whose relays' clocks differ: a session stamped by a relay
    /// running 10 s ahead is revoked all the same, and one issued afterwards by the revoking relay
    /// (whose clock is behind that stamp) is not.
    @Test(arguments: StoreKind.allCases) func revokingAllGoesByWhatIsStoredNotByClocks(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let behind = ManualClock()
        let ahead = ManualClock()
        ahead.advance(by: 10_000)
        let revoking = try await db.open(clock: behind, nodeID: "node-a")
        let issuing = kind == .sqlite ? revoking : try await db.open(clock: ahead, nodeID: "node-b")
        let early = try await issuing.addSessionToken(digest: Self.digest(1), app: "A", user: "alice", expiresAtMs: .max)
        let before = try await revoking.revokeAllSessionTokens(app: "A", beforeMs: behind.milliseconds + 1)
        #expect(before > early.createdAtMs, "the session stored before the revocation is revoked, whatever stamped it")
        #expect(try await revoking.sessionRevocations()["A"] == before)
        behind.advance(by: 1)
        let later = try await revoking.addSessionToken(digest: Self.digest(2), app: "A", user: "alice", expiresAtMs: .max)
        #expect(later.createdAtMs >= before, "a session issued after the revocation survives it")
        // A second revocation never moves the instant back.
        #expect(try await revoking.revokeAllSessionTokens(app: "A", beforeMs: 0) > later.createdAtMs)
    }

    /// Sessions stored before issuers were recorded cannot be told apart: revoking any secondary
    /// API token of their app ends them, with the token's own sessions.
    @Test(arguments: StoreKind.allCases) func revokingAnAPITokenEndsTheAppsSessionsOfUnknownIssuer(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let store = try await db.open()
        let token = try #require(try await store.addAPIToken(app: "A", digest: Self.digest(9), prefix: "ab12", limit: 5))
        try await store.addSessionToken(digest: Self.digest(1), app: "A", user: "alice", issuer: "another-token", expiresAtMs: .max)
        try await store.addSessionToken(digest: Self.digest(2), app: "A", user: "bob", issuer: "another-token", expiresAtMs: .max)
        try await store.addSessionToken(digest: Self.digest(3), app: "B", user: "bob", issuer: "another-token", expiresAtMs: .max)
        try await db.execute("UPDATE session_tokens SET issuer = NULL WHERE user_id = 'bob'")
        #expect(try await store.removeAPIToken(app: "A", .digest(token.digest)) == .removed(token))
        #expect(try await store.sessionToken(digest: Self.digest(1)) != nil, "issued by another token: kept")
        #expect(try await store.sessionToken(digest: Self.digest(2)) == nil, "of unknown issuer in app A: ended")
        #expect(try await store.sessionToken(digest: Self.digest(3)) != nil, "another app's")
    }
}
