import Synchronization

/// True when `task` finishes before `limit`; false otherwise, leaving it to run (it is not
/// awaited). The stop's steps use it so that one waiting on something outside the relay (a provider
/// connection, a PostgreSQL query on a hung connection, which cannot be cancelled) does not hold
/// the stop past systemd's TimeoutStopSec.
package func firstFinished(_ task: Task<Void, Never>, orAfter limit: Duration) async -> Bool {
    let timer = Task { _ = try? await Task.sleep(for: limit) }
    defer { timer.cancel() }
    return await firstFinished(task, before: timer)
}

/// True when `task` finishes before `other`; false otherwise. Neither is awaited further.
package func firstFinished(_ task: Task<Void, Never>, before other: Task<Void, Never>) async -> Bool {
    let first = FirstResume()
    return await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
        first.set(continuation)
        Task {
            await task.value
            first.resume(returning: true)
        }
        Task {
            await other.value
            first.resume(returning: false)
        }
    }
}

/// A continuation resumed by whichever of several racers comes first.
private final class FirstResume: Sendable {
    private let continuation = Mutex<CheckedContinuation<Bool, Never>?>(nil)

    func set(_ continuation: CheckedContinuation<Bool, Never>) {
        self.continuation.withLock { $0 = continuation }
    }

    func resume(returning value: Bool) {
        continuation.withLock { $0.take() }?.resume(returning: value)
    }
}
