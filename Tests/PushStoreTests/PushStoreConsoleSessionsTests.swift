import Foundation
import Testing
@testable import PushStore
@testable import StoreContract

/// The console's sessions in the store, on both stores: what one relay writes, another reads.
@Suite(.timeLimit(.minutes(5))) struct PushStoreConsoleSessionsTests {
    static let open = ConsoleSessionCutoff(idleByMs: -1, createdByMs: -1)

    static func session(_ name: String, kind: String = "api_token", seen: Int64, created: Int64 = 0) -> StoredConsoleSession {
        StoredConsoleSession(
            identityKind: kind, identityName: name, tokenDigest: kind == "api_token" ? Data([1, 2, 3]) : nil, app: name,
            csrfToken: "csrf-\(name)", createdAtMs: created, lastSeenAtMs: seen)
    }

    static func key(_ n: Int) -> Data { Data([UInt8(n)] + Array(repeating: 0, count: 31)) }

    @Test(arguments: StoreKind.allCases) func aSessionIsStoredTouchedSwitchedAndRemoved(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let store = try await db.open()
        try await store.addConsoleSession(key: Self.key(1), Self.session("ops", kind: "user", seen: 100), maximum: 10, cutoff: Self.open)
        #expect(try await store.consoleSession(key: Self.key(1)) == Self.session("ops", kind: "user", seen: 100))
        #expect(try await store.consoleSession(key: Self.key(2)) == nil)
        try await store.touchConsoleSession(key: Self.key(1), atMs: 500)
        try await store.touchConsoleSession(key: Self.key(1), atMs: 400)
        #expect(try await store.consoleSession(key: Self.key(1))?.lastSeenAtMs == 500, "a late touch never moves the time back")
        try await store.switchConsoleSession(key: Self.key(1), toApp: "b")
        #expect(try await store.consoleSession(key: Self.key(1))?.app == "b")
        try await store.addConsoleSession(key: Self.key(2), Self.session("a", seen: 100), maximum: 10, cutoff: Self.open)
        #expect(try await store.consoleSession(key: Self.key(2))?.tokenDigest == Data([1, 2, 3]))
        try await store.removeConsoleSession(key: Self.key(1))
        #expect(try await store.consoleSession(key: Self.key(1)) == nil)
        #expect(try await store.consoleSession(key: Self.key(2)) != nil)
    }

    /// Full: ended sessions go first; then the idlest of the identity holding the most, so one
    /// app signing in again and again evicts its own sessions, not another app's quiet one.
    @Test(arguments: StoreKind.allCases) func aFullTableEvictsFromTheLargestShare(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let store = try await db.open()
        try await store.addConsoleSession(key: Self.key(0), Self.session("b", seen: 0), maximum: 4, cutoff: Self.open)
        for n in 1...10 {
            try await store.addConsoleSession(key: Self.key(n), Self.session("a", seen: Int64(n)), maximum: 4, cutoff: Self.open)
        }
        var live: [Int] = []
        for n in 0...10 where try await store.consoleSession(key: Self.key(n)) != nil { live.append(n) }
        #expect(live == [0, 8, 9, 10], "app b's session, the idlest of all, stayed")
        // A console user is an identity of its own; app a holds the most and pays.
        try await store.addConsoleSession(key: Self.key(11), Self.session("a", kind: "user", seen: 11), maximum: 4, cutoff: Self.open)
        live = []
        for n in 0...11 where try await store.consoleSession(key: Self.key(n)) != nil { live.append(n) }
        #expect(live == [0, 9, 10, 11])
        // Ended sessions go before any live one: b's (seen at 0) has ended by this cutoff.
        let cutoff = ConsoleSessionCutoff(idleByMs: 0, createdByMs: -1)
        try await store.addConsoleSession(key: Self.key(12), Self.session("c", seen: 12), maximum: 4, cutoff: cutoff)
        live = []
        for n in 0...12 where try await store.consoleSession(key: Self.key(n)) != nil { live.append(n) }
        #expect(live == [9, 10, 11, 12])
        // The pruner's pass deletes what has ended, and only that.
        #expect(try await store.pruneConsoleSessions(cutoff: ConsoleSessionCutoff(idleByMs: 10, createdByMs: -1)) == 2)
        #expect(try await store.consoleSession(key: Self.key(11)) != nil)
        #expect(try await store.pruneConsoleSessions(cutoff: ConsoleSessionCutoff(idleByMs: -1, createdByMs: 0)) == 2)
        #expect(try await store.consoleSession(key: Self.key(11)) == nil)
    }

    /// A console user's sessions end together (a leaked password, a person who left), and an
    /// app's: those signed in with its API tokens and those showing it.
    @Test(arguments: StoreKind.allCases) func aUsersOrAnAppsSessionsEndTogether(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let store = try await db.open()
        var ops = Self.session("ops", kind: "user", seen: 100)
        for n in 1...2 { try await store.addConsoleSession(key: Self.key(n), ops, maximum: 10, cutoff: Self.open) }
        ops.app = "b"
        try await store.addConsoleSession(key: Self.key(3), ops, maximum: 10, cutoff: Self.open)
        try await store.addConsoleSession(key: Self.key(4), Self.session("a", seen: 100), maximum: 10, cutoff: Self.open)
        try await store.addConsoleSession(key: Self.key(5), Self.session("b", seen: 100), maximum: 10, cutoff: Self.open)
        #expect(try await store.removeConsoleSessions(app: "b", apiTokenKind: "api_token") == 2, "b's token and ops looking at b")
        #expect(try await store.consoleSession(key: Self.key(3)) == nil)
        #expect(try await store.consoleSession(key: Self.key(5)) == nil)
        #expect(try await store.removeConsoleSessions(identityKind: "user", identityName: "ops") == 2)
        #expect(try await store.consoleSession(key: Self.key(1)) == nil)
        #expect(try await store.consoleSession(key: Self.key(4)) != nil, "another app's session stays")
        #expect(try await store.removeConsoleSessions(identityKind: "user", identityName: "ops") == 0)
    }
}
