import StoreContract
import Synchronization

/// `withDeadline` gave up waiting.
struct DeadlineExceeded: Error {}

/// The result of `operation`, or `DeadlineExceeded` once `timeout` has passed, whichever comes
/// first. The operation is not awaited past the deadline: a query on a hung connection cannot be
/// cancelled, and a readiness probe or heartbeat must answer anyway. It finishes (or fails with
/// its connection) on its own.
func withDeadline<T: Sendable>(_ timeout: Duration, _ operation: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
        let once = ResumeOnce(continuation)
        let timer = Task {
            // Cancelled means the operation answered first: a cancelled sleep returns at once,
            // and resuming here then would report a deadline that never passed.
            do { try await Task.sleep(for: timeout) } catch { return }
            once.resume(with: .failure(DeadlineExceeded()))
        }
        Task {
            let result: Result<T, any Error>
            do { result = .success(try await operation()) } catch { result = .failure(error) }
            once.resume(with: result)
            timer.cancel()
        }
    }
}

/// A continuation that whichever of the operation and the timer comes first resumes.
private final class ResumeOnce<T: Sendable>: Sendable {
    private let continuation: Mutex<CheckedContinuation<T, any Error>?>

    init(_ continuation: CheckedContinuation<T, any Error>) { self.continuation = Mutex(continuation) }

    func resume(with result: Result<T, any Error>) {
        continuation.withLock { $0.take() }?.resume(with: result)
    }
}
