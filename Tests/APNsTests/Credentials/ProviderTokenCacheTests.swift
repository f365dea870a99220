import Foundation
import Testing
@testable import APNs

@Suite(.timeLimit(.minutes(5))) struct ProviderTokenCacheTests {
    let clock = ManualClock()
    let cache: ProviderTokenCache

    init() throws {
        let clock = self.clock
        cache = try ProviderTokenCache(
            key: APNsSigningKey(p8File: CredentialFixtures.p8),
            keyID: CredentialFixtures.keyID, teamID: CredentialFixtures.teamID,
            refreshAfter: .seconds(50 * 60), now: { clock.now })
    }

    @Test func mintsOnFirstUseThenServesTheCachedToken() throws {
        #expect(cache.mintedCount == 0)
        let first = try cache.current()
        #expect(first.generation == 1)
        #expect(first.issuedAt == clock.now)
        clock.advance(by: 49 * 60)
        #expect(try cache.current() == first)
        #expect(cache.mintedCount == 1)
    }

    @Test func refreshesOnceTheTokenIsRefreshAfterOld() throws {
        let first = try cache.current()
        clock.advance(by: 50 * 60 - 1)
        #expect(try cache.current() == first)
        clock.advance(by: 1)
        let second = try cache.current()
        #expect(second.generation == 2)
        #expect(second.issuedAt == first.issuedAt.addingTimeInterval(50 * 60))
        #expect(second.jwt != first.jwt)
        #expect(try cache.current() == second)
        #expect(cache.mintedCount == 2)
    }

    @Test func replacesATokenFromTheFutureAfterTheClockStepsBack() throws {
        let first = try cache.current()
        clock.advance(by: -3600)
        let second = try cache.current()
        #expect(second.generation == first.generation + 1)
        #expect(second.issuedAt < first.issuedAt)
    }

    @Test func invalidateWithTheCurrentGenerationMintsOnce() throws {
        let first = try cache.current()
        clock.advance(by: 60)
        let replacement = try cache.invalidate(generation: first.generation)
        #expect(replacement.generation == first.generation + 1)
        #expect(replacement.issuedAt == clock.now)
        #expect(try cache.current() == replacement)
        #expect(cache.mintedCount == 2)
    }

    @Test func invalidateWithAStaleGenerationReturnsTheNewerTokenWithoutMinting() throws {
        let first = try cache.current()
        let second = try cache.invalidate(generation: first.generation)
        #expect(try cache.invalidate(generation: first.generation) == second)
        #expect(cache.mintedCount == 2)
    }

    @Test func burstOf200FailuresFromOneTokenMintsExactlyOne() async throws {
        let first = try cache.current()
        let before = cache.mintedCount
        let cache = self.cache
        let generations = try await withThrowingTaskGroup(of: UInt64.self) { group in
            for _ in 0..<200 {
                group.addTask { try cache.invalidate(generation: first.generation).generation }
            }
            var seen: [UInt64] = []
            for try await generation in group { seen.append(generation) }
            return seen
        }
        #expect(generations.count == 200)
        #expect(Set(generations) == [first.generation + 1])
        #expect(cache.mintedCount == before + 1)
    }

    @Test func concurrentCallersDuringARefreshShareOneNewToken() async throws {
        _ = try cache.current()
        clock.advance(by: 50 * 60)
        let cache = self.cache
        let tokens = try await withThrowingTaskGroup(of: ProviderToken.self) { group in
            for _ in 0..<100 { group.addTask { try cache.current() } }
            var seen: [ProviderToken] = []
            for try await token in group { seen.append(token) }
            return seen
        }
        #expect(Set(tokens.map(\.generation)) == [2])
        #expect(cache.mintedCount == 2)
    }

    @Test func tokensFromTheCacheVerifyIndependently() throws {
        let token = try cache.current()
        let result = try CredentialFixtures.verifyWithPython(
            jwt: token.jwt,
            publicKeyPath: CredentialFixtures.p8PublicKey)
        #expect(result.status == 0, "verify_jwt.py: \(result.message)")
    }

    @Test func invalidIDsAreRejectedAtInit() throws {
        let key = try APNsSigningKey(p8File: CredentialFixtures.p8)
        #expect(throws: APNsCredentialError.invalidKeyID("short")) {
            try ProviderTokenCache(key: key, keyID: "short", teamID: CredentialFixtures.teamID)
        }
        #expect(throws: APNsCredentialError.invalidTeamID("TEAM-12345")) {
            try ProviderTokenCache(key: key, keyID: CredentialFixtures.keyID, teamID: "TEAM-12345")
        }
    }
}
