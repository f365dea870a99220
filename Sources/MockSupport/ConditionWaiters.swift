/// Callers waiting, each with a deadline, for a condition on a value of a mock's state (its
/// recorded messages, its counters). It lives inside the state's lock: the owner hands each change
/// of the value to `resume(satisfiedBy:)` under that lock, and `wait` registers under it, so no
/// change slips between a caller's check and its registration. A deadline bounds a failure only:
/// a satisfied wait returns at once.
package struct ConditionWaiters<Value: Sendable>: Sendable {
    package typealias Condition = @Sendable (Value) -> Bool
    /// Runs `body` under the owner's lock with the waiters and the value they wait on.
    package typealias Locked = @Sendable (_ body: (inout ConditionWaiters<Value>, Value) -> Void) -> Void

    private struct Waiter: Sendable {
        let condition: Condition
        let continuation: CheckedContinuation<Value, any Error>
    }

    private var waiting: [UInt64: Waiter] = [:]
    /// Waits whose deadline passed before they registered: they give up as they register.
    private var abandoned: Set<UInt64> = []
    private var nextID: UInt64 = 0
    /// Set at shutdown: what every later wait fails with.
    private var failure: (any Error)?

    package init() {}

    /// Resumes the waits `value` satisfies; call it under the lock whenever the value changes.
    package mutating func resume(satisfiedBy value: Value) {
        guard !waiting.isEmpty else { return }
        for (id, waiter) in waiting where waiter.condition(value) {
            waiting.removeValue(forKey: id)
            waiter.continuation.resume(returning: value)
        }
    }

    /// Fails every wait, and every later one, with `error` (the mock shut down).
    package mutating func fail(with error: any Error) {
        failure = error
        for waiter in waiting.values { waiter.continuation.resume(throwing: error) }
        waiting.removeAll()
    }

    /// Waits until `condition` holds for the value `locked` shows, and returns that value; throws
    /// `timedOut()` at the deadline, the shutdown error once `fail(with:)` was called, and
    /// `CancellationError` when the caller is cancelled.
    package static func wait(
        until condition: @escaping Condition, timeout: Duration, timedOut: @escaping @Sendable () -> any Error,
        locked: @escaping Locked
    ) async throws -> Value {
        let id = Self.makeID(locked)
        return try await withThrowingTaskGroup(of: Value.self) { group in
            group.addTask {
                try await withCheckedThrowingContinuation { continuation in
                    var immediate: Result<Value, any Error>?
                    locked { waiters, value in
                        immediate = waiters.register(id, condition: condition, value: value, continuation: continuation)
                    }
                    if let immediate { continuation.resume(with: immediate) }
                }
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw timedOut()
            }
            var answered = false
            defer {
                group.cancelAll()
                // A wait the deadline beat is still registered: answer it so its task ends. One not
                // registered yet is marked, so it gives up as it registers.
                var withdrawn: CheckedContinuation<Value, any Error>?
                locked { waiters, _ in withdrawn = waiters.withdraw(id, answered: answered) }
                withdrawn?.resume(throwing: CancellationError())
            }
            guard let first = try await group.next() else { throw CancellationError() }
            answered = true
            return first
        }
    }

    private static func makeID(_ locked: Locked) -> UInt64 {
        var id: UInt64 = 0
        locked { waiters, _ in
            waiters.nextID += 1
            id = waiters.nextID
        }
        return id
    }

    /// The answer a wait gets at once, if any; otherwise it is kept until `value` satisfies it.
    private mutating func register(
        _ id: UInt64, condition: @escaping Condition, value: Value, continuation: CheckedContinuation<Value, any Error>
    ) -> Result<Value, any Error>? {
        if abandoned.remove(id) != nil { return .failure(CancellationError()) }
        if let failure { return .failure(failure) }
        if condition(value) { return .success(value) }
        waiting[id] = Waiter(condition: condition, continuation: continuation)
        return nil
    }

    private mutating func withdraw(_ id: UInt64, answered: Bool) -> CheckedContinuation<Value, any Error>? {
        let waiter = waiting.removeValue(forKey: id)
        if waiter == nil, !answered, failure == nil { abandoned.insert(id) }
        return waiter?.continuation
    }
}
