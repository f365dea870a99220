import MockSupport
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(5))) struct ConditionWaitersTests {
    struct TimedOut: Error, Equatable {}
    struct ShutDown: Error, Equatable {}

    /// An owner as the mocks keep one: a value and its waiters under one lock.
    final class Owner: Sendable {
        private struct State {
            var records: [Int] = []
            var waiters = ConditionWaiters<[Int]>()
        }

        private let state = Mutex(State())

        func record(_ value: Int) {
            state.withLock { state in
                state.records.append(value)
                state.waiters.resume(satisfiedBy: state.records)
            }
        }

        func shutDown() {
            state.withLock { $0.waiters.fail(with: ShutDown()) }
        }

        func wait(count: Int, timeout: Duration) async throws -> [Int] {
            try await ConditionWaiters.wait(until: { $0.count >= count }, timeout: timeout) {
                TimedOut()
            } locked: { body in
                self.state.withLock { body(&$0.waiters, $0.records) }
            }
        }
    }

    @Test func aWaitReturnsOnceTheValueSatisfiesItAndAtOnceWhenItAlreadyDoes() async throws {
        let owner = Owner()
        let waiting = Task { try await owner.wait(count: 2, timeout: .seconds(120)) }
        owner.record(1)
        owner.record(2)
        #expect(try await waiting.value == [1, 2])
        owner.record(3)
        #expect(try await owner.wait(count: 1, timeout: .seconds(120)) == [1, 2, 3])
    }

    @Test func aWaitNeverSatisfiedFailsAtItsDeadline() async throws {
        let owner = Owner()
        owner.record(1)
        await #expect(throws: TimedOut()) { try await owner.wait(count: 2, timeout: .milliseconds(20)) }
        // The withdrawn wait is not answered by a later record; a new one is.
        owner.record(2)
        #expect(try await owner.wait(count: 2, timeout: .seconds(120)) == [1, 2])
    }

    @Test func shutdownFailsPendingAndLaterWaits() async throws {
        let owner = Owner()
        let waiting = Task { try await owner.wait(count: 1, timeout: .seconds(120)) }
        owner.shutDown()
        await #expect(throws: ShutDown()) { try await waiting.value }
        owner.record(1)
        await #expect(throws: ShutDown()) { try await owner.wait(count: 1, timeout: .seconds(120)) }
    }

    /// A cancelled caller gets `CancellationError` at once, not its deadline's error much later.
    @Test func aCancelledWaitEndsWithCancellation() async throws {
        let owner = Owner()
        let waiting = Task { try await owner.wait(count: 1, timeout: .seconds(120)) }
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
    }
}
