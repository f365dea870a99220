import Synchronization
import Testing

@testable import PushSending

/// The OAuth access token rules FCM's and HMS's clients share, without I/O: the state decides,
/// `AccessTokens` acts on it with a scripted fetch.
@Suite(.timeLimit(.minutes(5))) struct AccessTokensTests {
    /// One fetch at a time; refreshed before it expires; a rejected token is not used again.
    @Test func theStateFetchesOnceRefreshesEarlyAndDropsARejectedToken() {
        var state = AccessTokenState()
        #expect(state.tokenForSend(now: 0) == .fetch)
        #expect(state.tokenForSend(now: 0) == .wait)
        state.fetchFailed()
        #expect(state.tokenForSend(now: 1) == .fetch)
        state.fetched(AccessToken(value: "a", expiresAt: 3_600))
        #expect(state.tokenForSend(now: 3_299) == .use("a"))
        #expect(state.tokenForSend(now: 3_300) == .fetch, "five minutes before expiry")
        state.fetched(AccessToken(value: "b", expiresAt: 7_200))
        state.rejected("a")
        #expect(state.tokenForSend(now: 3_301) == .use("b"), "an older token's 401 leaves the new one")
        state.rejected("b")
        #expect(state.tokenForSend(now: 3_302) == .fetch)
    }

    struct Refused: Error, Equatable { var n: Int }

    /// A fetch that waits until the test lets it answer, counting how often it ran.
    final class ScriptedFetch: Sendable {
        let answers: Mutex<[Result<AccessToken, Refused>]>
        let calls = Mutex(0)
        let gate = AsyncStream<Void>.makeStream()

        init(_ answers: [Result<AccessToken, Refused>]) { self.answers = Mutex(answers) }

        func fetch() async -> Result<AccessToken, Refused> {
            calls.withLock { $0 += 1 }
            var gates = gate.stream.makeAsyncIterator()
            _ = await gates.next()
            return answers.withLock { $0.removeFirst() }
        }
    }

    @Test func concurrentSendsShareOneFetchAndAFailureIsNotKept() async throws {
        let script = ScriptedFetch([.failure(Refused(n: 1)), .success(AccessToken(value: "t1", expiresAt: 10_000))])
        let tokens = AccessTokens<Refused>(clock: { 0 }, fetch: script.fetch)
        async let first = tokens.token()
        async let second = tokens.token()
        try await Self.until { script.calls.withLock { $0 } == 1 }
        script.gate.continuation.yield()
        #expect(await first == .failure(Refused(n: 1)))
        #expect(await second == .failure(Refused(n: 1)))
        #expect(script.calls.withLock { $0 } == 1, "one fetch for both")

        async let third = tokens.token()
        try await Self.until { script.calls.withLock { $0 } == 2 }
        script.gate.continuation.yield()
        #expect(await third == .success("t1"), "a failed fetch is tried again")
        #expect(await tokens.token() == .success("t1"))
        #expect(script.calls.withLock { $0 } == 2)
    }

    @Test func shutdownAnswersTheSendsStillWaiting() async throws {
        let script = ScriptedFetch([.success(AccessToken(value: "late", expiresAt: 10_000))])
        let tokens = AccessTokens<Refused>(clock: { 0 }, fetch: script.fetch)
        async let waiting = tokens.token()
        try await Self.until { script.calls.withLock { $0 } == 1 }
        tokens.shutdown(failing: Refused(n: 0))
        #expect(await waiting == .failure(Refused(n: 0)))
        script.gate.continuation.yield()
    }

    /// Polls `condition`; the deadline only bounds a failure.
    static func until(_ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while !condition() {
            try #require(ContinuousClock.now < deadline, "condition not met")
            try await Task.sleep(for: .milliseconds(1))
        }
    }
}
