/// What a mock accepted, in order (its in-memory record), and the callers waiting for it to reach a
/// count. Lives inside the mock's lock, as `ConditionWaiters` does.
package struct Recordings<Record: Sendable>: Sendable {
    package private(set) var all: [Record] = []
    private var waiters = ConditionWaiters<[Record]>()
    /// False when records go to a file only: `append` keeps nothing.
    private let keeping: Bool

    package init(keeping: Bool = true) {
        self.keeping = keeping
    }

    package mutating func append(_ record: Record) {
        append(contentsOf: [record])
    }

    package mutating func append(contentsOf records: [Record]) {
        guard keeping, !records.isEmpty else { return }
        all += records
        waiters.resume(satisfiedBy: all)
    }

    /// Forgets the records; waits go on, for new ones.
    package mutating func removeAll() {
        all.removeAll()
    }

    /// Fails every wait, and every later one, with `error` (the mock shut down).
    package mutating func fail(with error: any Error) {
        waiters.fail(with: error)
    }

    /// Waits until at least `count` records are kept and returns them all; at the deadline throws
    /// `timedOut("<count> recorded <noun>", timeout)`. `locked` runs its body under the mock's lock.
    package static func wait(
        count: Int, of noun: String, timeout: Duration, timedOut: @escaping @Sendable (String, Duration) -> any Error,
        locked: @escaping @Sendable (_ body: (inout Recordings) -> Void) -> Void
    ) async throws -> [Record] {
        try await ConditionWaiters.wait(until: { $0.count >= count }, timeout: timeout) {
            timedOut("\(count) recorded \(noun)", timeout)
        } locked: { body in
            locked { body(&$0.waiters, $0.all) }
        }
    }
}
