/// Waiting for recorded messages: a test's deadline bounds a failure, never a success.
extension HMSMockCore {
    /// Resumes the waits that `state.messages` now satisfies; called under the lock as messages arrive.
    func resumeSatisfiedWaiters(_ state: inout State) {
        guard !state.waiters.isEmpty else { return }
        for (id, waiter) in state.waiters where state.messages.count >= waiter.count {
            state.waiters.removeValue(forKey: id)
            waiter.continuation.resume(returning: state.messages)
        }
    }

    func waitForMessages(count: Int, timeout: Duration) async throws -> [RecordedMessage] {
        let id = state.withLock { state in
            state.nextWaiterID += 1
            return state.nextWaiterID
        }
        return try await withThrowingTaskGroup(of: [RecordedMessage].self) { group in
            group.addTask {
                try await withCheckedThrowingContinuation { continuation in
                    let immediate: Result<[RecordedMessage], any Error>? = self.state.withLock { state in
                        if state.abandoned.remove(id) != nil { return .failure(CancellationError()) }
                        if state.isShutDown { return .failure(HMSMockError.shutDown) }
                        if state.messages.count >= count { return .success(state.messages) }
                        state.waiters[id] = Waiter(count: count, continuation: continuation)
                        return nil
                    }
                    if let immediate { continuation.resume(with: immediate) }
                }
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw HMSMockError.timedOut(waitingFor: "\(count) recorded messages", after: timeout)
            }
            var answered = false
            defer {
                group.cancelAll()
                // A waiter the deadline beat is still registered: answer it so its task ends. One
                // not registered yet is marked, so it gives up as it registers.
                let waiter = self.state.withLock { state in
                    let waiter = state.waiters.removeValue(forKey: id)
                    if waiter == nil, !answered { state.abandoned.insert(id) }
                    return waiter
                }
                waiter?.continuation.resume(throwing: CancellationError())
            }
            guard let first = try await group.next() else { throw CancellationError() }
            answered = true
            return first
        }
    }
}
