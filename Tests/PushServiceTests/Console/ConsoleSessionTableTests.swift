import Testing
@testable import PushService

@Suite struct ConsoleSessionTableTests {
    private func session(at micros: Int64, app: String = "a") -> ConsoleSession {
        ConsoleSession(identity: .user(name: "ops"), app: app, csrfToken: "t", lastSeenMicros: micros, createdMicros: micros)
    }

    @Test func aRequestRestartsTheIdleClockAndSilenceEndsTheSession() {
        var table = ConsoleSessionTable(idleTimeout: .seconds(60))
        table.insert(session(at: 0), key: [1])
        #expect(table.touch([1], nowMicros: 59_000_000) != nil)
        #expect(table.touch([1], nowMicros: 118_000_000) != nil, "the last request restarted the clock")
        #expect(table.touch([1], nowMicros: 178_000_000) == nil, "60 s of silence ends it")
        #expect(table.count == 0, "an ended session is forgotten")
        #expect(table.touch([1], nowMicros: 178_000_001) == nil)
    }

    @Test func aSessionEndsAtItsMaximumLifetimeHoweverBusy() {
        var table = ConsoleSessionTable(idleTimeout: .seconds(60), maximumLifetime: .seconds(120))
        table.insert(session(at: 0), key: [1])
        #expect(table.touch([1], nowMicros: 50_000_000) != nil)
        #expect(table.touch([1], nowMicros: 100_000_000) != nil)
        #expect(table.touch([1], nowMicros: 120_000_000) == nil)
    }

    @Test func aFullTableDropsTheSessionIdleLongest() {
        var table = ConsoleSessionTable(idleTimeout: .seconds(3600), maximumSessions: 2)
        table.insert(session(at: 0), key: [1])
        table.insert(session(at: 10), key: [2])
        _ = table.touch([1], nowMicros: 20)
        table.insert(session(at: 30), key: [3])
        #expect(table.count == 2)
        #expect(table.touch([2], nowMicros: 40) == nil, "the idlest went")
        #expect(table.touch([1], nowMicros: 40) != nil)
        #expect(table.touch([3], nowMicros: 40) != nil)
    }

    @Test func signingOutAndSwitchingAppsChangeOnlyThatSession() {
        var table = ConsoleSessionTable(idleTimeout: .seconds(60))
        table.insert(session(at: 0), key: [1])
        table.insert(session(at: 0), key: [2])
        table.switchApp([1], to: "b")
        #expect(table.touch([1], nowMicros: 1)?.app == "b")
        #expect(table.touch([2], nowMicros: 1)?.app == "a")
        table.remove([1])
        #expect(table.touch([1], nowMicros: 2) == nil)
        #expect(table.touch([2], nowMicros: 2) != nil)
    }

    /// One app signing in again and again fills the table with its own sessions, then evicts only
    /// those: another app's quiet session survives, however idle.
    @Test func aFullTableEvictsFromTheTenantHoldingTheMost() {
        func token(_ app: String, at micros: Int64) -> ConsoleSession {
            ConsoleSession(
                identity: .apiToken(app: app, digest: [1]), app: app, csrfToken: "t", lastSeenMicros: micros, createdMicros: micros)
        }
        var table = ConsoleSessionTable(idleTimeout: .seconds(3600), maximumSessions: 4)
        table.insert(token("b", at: 0), key: [0])
        for n in 1...10 { table.insert(token("a", at: Int64(n)), key: [UInt8(n)]) }
        #expect(table.count == 4)
        #expect(table.touch([0], nowMicros: 20) != nil, "app b's session, the idlest of all, stayed")
        #expect((1...7).allSatisfy { table.touch([UInt8($0)], nowMicros: 20) == nil }, "app a's oldest went")
        #expect((8...10).allSatisfy { table.touch([UInt8($0)], nowMicros: 20) != nil })
        // A console user is a tenant of its own, and so is every app: the largest share pays.
        table.insert(session(at: 30), key: [11])
        #expect(table.touch([0], nowMicros: 40) != nil)
        #expect(table.touch([11], nowMicros: 40) != nil)
        #expect((8...10).filter { table.touch([UInt8($0)], nowMicros: 40) != nil }.count == 2, "app a held three of four")
    }
}
