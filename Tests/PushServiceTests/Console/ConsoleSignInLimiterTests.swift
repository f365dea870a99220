import Synchronization
import Testing
@testable import PushService

@Suite(.timeLimit(.minutes(5))) struct ConsoleSignInLimiterTests {
    @Test func tenAtOnceThenOneEveryTwoSecondsPerClientAndPerName() throws {
        let now = Mutex<Int64>(0)
        let limiter = ConsoleSignInLimiter(nowMicros: { now.withLock { $0 } })
        for _ in 0..<ConsoleSignInLimiter.burst { try limiter.admit(client: "198.51.100.7", user: "") }
        let refusal = #expect(throws: APIError.self) { try limiter.admit(client: "198.51.100.7", user: "") }
        #expect(refusal?.status == .tooManyRequests)
        #expect(refusal?.retryAfterSeconds == 2)
        try limiter.admit(client: "198.51.100.8", user: "")
        now.withLock { $0 = 2_000_000 }
        try limiter.admit(client: "198.51.100.7", user: "")
        #expect(throws: APIError.self) { try limiter.admit(client: "198.51.100.7", user: "") }

        // Many clients guessing one user's password share that name's budget.
        for client in 0..<ConsoleSignInLimiter.burst { try limiter.admit(client: "203.0.113.\(client)", user: "ops") }
        #expect(throws: APIError.self) { try limiter.admit(client: "203.0.113.99", user: "ops") }
        try limiter.admit(client: "203.0.113.99", user: "")
    }

    /// A browser where the user signed in before (a valid device cookie) spends a budget of its
    /// own, not the name's that everyone else shares: guesses from elsewhere cannot lock it out.
    @Test func aTrustedBrowserIsLimitedByItsOwnBudgetNotTheNames() throws {
        let limiter = ConsoleSignInLimiter(nowMicros: { 0 })
        for client in 0..<ConsoleSignInLimiter.burst { try limiter.admit(client: "203.0.113.\(client)", user: "ops") }
        #expect(throws: APIError.self) { try limiter.admit(client: "198.51.100.4", user: "ops") }
        try limiter.admit(client: "198.51.100.4", user: "ops", trustedDevice: "device-cookie-value")
        #expect(
            ConsoleSignInLimiter.keys(client: "a", user: "ops", trustedDevice: nil) == ["client:a", "user:ops"])
        #expect(ConsoleSignInLimiter.keys(client: "a", user: "", trustedDevice: "x") == ["client:a"])
        #expect(ConsoleSignInLimiter.keys(client: "a", user: "ops", trustedDevice: "x").last?.hasPrefix("device:") == true)
    }
}
