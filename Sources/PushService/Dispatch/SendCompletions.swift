import APNs
import PushStore
import Synchronization

/// APNs answers on their way back to the dispatcher's loop. The client's completion handlers
/// (on its connections' threads) put them here; the loop takes them in batches.
///
/// A task per push, resumed once by its answer and then resuming the loop, cost more than the
/// push's own HTTP/2 work: task creation and teardown, their allocations and a loop wake-up per
/// push were about 15 % of the relay's CPU in a backlog drain.
final class SendCompletions: Sendable {
    struct Completed: Sendable {
        let delivery: DeliveryRecord
        let handedOff: Bool
        let result: Result<APNsResponse, any Error>
        /// From the request to its answer.
        let latency: Duration
        /// When the answer came (Unix ms): the end of the user's wait.
        let answeredAtMs: Int64
    }

    private struct State {
        var completed: [Completed] = []
        var waiter: CheckedContinuation<Void, Never>?
    }
    private let state = Mutex(State())

    init() {}

    func add(_ completed: Completed) {
        let waiter = state.withLock { s in
            s.completed.append(completed)
            defer { s.waiter = nil }
            return s.waiter
        }
        waiter?.resume()
    }

    /// Returns once there is something to take, or when the task is cancelled. One waiter at a time.
    func wait() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let now = state.withLock { s in
                    if !s.completed.isEmpty || Task.isCancelled { return true }
                    precondition(s.waiter == nil, "one waiter at a time")
                    s.waiter = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { s in
                defer { s.waiter = nil }
                return s.waiter
            }
            waiter?.resume()
        }
    }

    /// Everything answered since the last take, in the order the answers came.
    func take() -> [Completed] {
        state.withLock { s in
            defer { s.completed.removeAll(keepingCapacity: true) }
            return s.completed
        }
    }
}
