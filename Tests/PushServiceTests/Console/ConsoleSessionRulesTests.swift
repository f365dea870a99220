import PushStore
import StoreContract
import Testing
@testable import PushService

@Suite(.timeLimit(.minutes(5))) struct ConsoleSessionRulesTests {
    private func session(seen: Int64, created: Int64 = 0) -> StoredConsoleSession {
        StoredConsoleSession(
            identityKind: "user", identityName: "ops", tokenDigest: nil, app: "a", csrfToken: "t", createdAtMs: created,
            lastSeenAtMs: seen)
    }

    @Test func silenceEndsASessionAndARequestRestartsItsClock() {
        let rules = ConsoleSessionRules(idleTimeout: .seconds(60))
        #expect(rules.isLive(session(seen: 0), nowMs: 59_999))
        #expect(!rules.isLive(session(seen: 0), nowMs: 60_000), "60 s of silence ends it")
        #expect(rules.isLive(session(seen: 59_000), nowMs: 118_000), "the last request restarted the clock")
    }

    @Test func aSessionEndsAtItsMaximumLifetimeHoweverBusy() {
        let rules = ConsoleSessionRules(idleTimeout: .seconds(60), maximumLifetime: .seconds(120))
        #expect(rules.isLive(session(seen: 119_000), nowMs: 119_999))
        #expect(!rules.isLive(session(seen: 119_000), nowMs: 120_000))
    }

    /// A page view writes the session's time only when the one recorded is older than a twentieth
    /// of the idle timeout (1 s to 30 s), so the timeout holds to within 5 %.
    @Test func aRequestIsWrittenOnlyWhenTheRecordedOneIsOld() {
        let minute = ConsoleSessionRules(idleTimeout: .seconds(60))
        #expect(minute.touchIntervalMs == 3_000)
        #expect(!minute.needsTouch(session(seen: 10_000), nowMs: 12_999))
        #expect(minute.needsTouch(session(seen: 10_000), nowMs: 13_000))
        #expect(ConsoleSessionRules(idleTimeout: .seconds(24 * 3600)).touchIntervalMs == 30_000)
        #expect(ConsoleSessionRules(idleTimeout: .seconds(10)).touchIntervalMs == 1_000)
    }

    @Test func theCutoffIsWhereSessionsEnded() {
        let rules = ConsoleSessionRules(idleTimeout: .seconds(60), maximumLifetime: .seconds(3600))
        let cutoff = rules.cutoff(nowMs: 10_000_000)
        #expect(cutoff == ConsoleSessionCutoff(idleByMs: 9_940_000, createdByMs: 6_400_000))
        #expect(!rules.isLive(session(seen: cutoff.idleByMs, created: 9_000_000), nowMs: 10_000_000))
        #expect(rules.isLive(session(seen: cutoff.idleByMs + 1, created: cutoff.createdByMs + 1), nowMs: 10_000_000))
    }
}
