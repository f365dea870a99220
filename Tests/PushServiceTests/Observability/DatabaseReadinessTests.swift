import Synchronization
import Testing
@testable import PushService

@Suite(.timeLimit(.minutes(5))) struct DatabaseReadinessTests {
    final class CountingCheck: Sendable {
        let calls = Mutex(0)
        let answer = Mutex<String?>(nil)
        func run() async -> String? {
            calls.withLock { $0 += 1 }
            return answer.withLock { $0 }
        }
    }

    @Test func aFloodOfRequestsRunsOneCheck() async {
        let counting = CountingCheck()
        let readiness = DatabaseReadiness(maximumAge: .seconds(3600), check: { await counting.run() })
        await withTaskGroup(of: String?.self) { group in
            for _ in 0..<500 { group.addTask { await readiness.current() } }
            for await result in group { #expect(result == nil) }
        }
        #expect(counting.calls.withLock { $0 } == 1)
    }

    @Test func aStaleResultIsAnsweredWhileOneRefreshRuns() async throws {
        let counting = CountingCheck()
        let readiness = DatabaseReadiness(maximumAge: .zero, check: { await counting.run() })
        #expect(await readiness.current() == nil)
        counting.answer.withLock { $0 = "disk full" }
        // Every later request may start a refresh, but never more than one at a time and never
        // waits for it: the state converges to the new answer.
        let deadline = ContinuousClock.now + .seconds(30)
        var seen: String?
        while seen == nil, ContinuousClock.now < deadline {
            seen = await readiness.current()
            await Task.yield()
        }
        #expect(seen == "disk full")
    }

    @Test func eachFailedCheckCountsAsAReadinessError() async {
        let registry = PrometheusTestRegistry()
        let counting = CountingCheck()
        let readiness = DatabaseReadiness(maximumAge: .seconds(3600), metrics: registry.factory, check: { await counting.run() })
        #expect(await readiness.current() == nil)
        #expect(!registry.text.contains(#"operation="readiness"} 1"#), "\(registry.text)")
        counting.answer.withLock { $0 = "connection refused" }
        let failing = DatabaseReadiness(maximumAge: .seconds(3600), metrics: registry.factory, check: { await counting.run() })
        #expect(await failing.current() == "connection refused")
        #expect(registry.text.contains(#"pushrelay_database_errors_total{operation="readiness"} 1"#), "\(registry.text)")
    }
}
