import Testing
import MockSupport

/// An access token is valid for its lifetime, expired after (or when the admin says), unknown if never issued.
@Suite(.timeLimit(.minutes(5))) struct AccessTokenLedgerTests {
    @Test func aTokenLivesItsLifetime() {
        var ledger = AccessTokenLedger()
        ledger.issue("a", now: 1000, lifetimeSeconds: 3600)
        #expect(ledger.verdict(for: "a", now: 4599) == .valid)
        #expect(ledger.verdict(for: "a", now: 4600) == .expired)
        #expect(ledger.verdict(for: "b", now: 1000) == .unknown)
        #expect(ledger.verdict(for: nil, now: 1000) == .unknown)
    }

    @Test func expiringAllEndsEveryTokenIssuedSoFarButNotLaterOnes() {
        var ledger = AccessTokenLedger()
        ledger.issue("a", now: 1000, lifetimeSeconds: 3600)
        ledger.issue("b", now: 1000, lifetimeSeconds: 3600)
        ledger.expireAll(now: 1010)
        #expect(ledger.verdict(for: "a", now: 1010) == .expired)
        #expect(ledger.verdict(for: "b", now: 1010) == .expired)
        ledger.issue("c", now: 1010, lifetimeSeconds: 3600)
        #expect(ledger.verdict(for: "c", now: 1011) == .valid)
    }

    @Test func pastTheLimitTheTokensExpiringFirstAreForgotten() {
        var ledger = AccessTokenLedger(limit: 4)
        for (index, token) in ["a", "b", "c", "d"].enumerated() { ledger.issue(token, now: Int64(index), lifetimeSeconds: 100) }
        ledger.issue("e", now: 10, lifetimeSeconds: 100)
        #expect(ledger.count == 3)
        #expect(ledger.verdict(for: "a", now: 10) == .unknown)
        #expect(ledger.verdict(for: "d", now: 10) == .valid)
        #expect(ledger.verdict(for: "e", now: 10) == .valid)
    }
}
