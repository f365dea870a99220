import PushSending
import StoreContract
import Synchronization

/// Everything that wakes the dispatcher's loop, with one waiter: hand-offs and `wake()` (a
/// flag), senders' answers (from a client's connection thread or a send's task), and what the
/// loop's child tasks report (claims, flushes, timers). The loop takes all of it at once.
///
/// One place to wait, and no task per wake-up. Before, a hand-off woke a waker task (itself a
/// group of a sleep and a wait, a timer created and cancelled each time) and answers woke a task
/// of their own, each then resuming the loop through its task group: at 800 events/s the relay
/// made about 25 voluntary context switches per event, and waking threads (Swift's executor
/// enqueueing, futex waits) was the largest item of its profile. (Answers never had a task per
/// push: task creation and teardown, their allocations and a loop wake-up per push were about
/// 15 % of the relay's CPU in a backlog drain.)
///
/// Bounded: answers are at most the sends in flight (the claim window plus the hand-off room),
/// reports at most the loop's child tasks.
final class DispatchMailbox<Report: Sendable>: Sendable {
    /// A sender's answer (or its failure) for one send. A class: from the connection's thread
    /// through the mail to the loop, an answer is copied three or four times, and a copy of its
    /// `DeliveryRecord` retains each of its strings and its payload (about 2 µs of an 8-push
    /// event's CPU at the busy end, 2026-11-29); a reference is one retain.
    final class Answer: Sendable {
        let delivery: DeliveryRecord
        let handedOff: Bool
        let result: PushSendResult
        /// When the answer came (Unix ms): the end of the user's wait.
        let answeredAtMs: Int64

        init(delivery: DeliveryRecord, handedOff: Bool, result: PushSendResult, answeredAtMs: Int64) {
            self.delivery = delivery
            self.handedOff = handedOff
            self.result = result
            self.answeredAtMs = answeredAtMs
        }
    }

    /// What piled up since the last `next()`, answers and reports in the order they came.
    struct Mail {
        var signalled = false
        var answers: [Answer] = []
        var reports: [Report] = []

        var isEmpty: Bool { !signalled && answers.isEmpty && reports.isEmpty }
    }

    private struct State {
        var mail = Mail()
        var waiter: CheckedContinuation<Void, Never>?
        /// Whether an answer resumes the waiter (set by each `next`).
        var answersWake = true

        var wakesWaiter: Bool { mail.signalled || !mail.reports.isEmpty || (answersWake && !mail.answers.isEmpty) }
    }

    private let state = Mutex(State())

    init() {}

    /// A hand-off, `wake()` or `stop()`. Remembered until taken, so none is missed.
    func signal() {
        deliver { $0.signalled = true }
    }

    /// A sender's answer (called on any thread). It wakes the loop only if the loop asked for
    /// that; otherwise it is taken with the next thing that does.
    func add(_ answer: Answer) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.mail.answers.append(answer)
            guard state.answersWake else { return nil }
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// A child task's report.
    func post(_ report: Report) {
        deliver { $0.reports.append(report) }
    }

    private func deliver(_ put: (inout Mail) -> Void) {
        let waiter = state.withLock { state in
            put(&state.mail)
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// Everything that came since the last call; waits while there is nothing, or (`answersWake`
    /// false) only answers. Returns at once (possibly empty) when the task is cancelled. One
    /// waiter at a time: the loop.
    func next(answersWake: Bool) async -> Mail {
        if let mail = take() { return mail }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let now = state.withLock { state in
                    state.answersWake = answersWake
                    if state.wakesWaiter || Task.isCancelled { return true }
                    precondition(state.waiter == nil, "one waiter at a time")
                    state.waiter = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume()
        }
        return take() ?? Mail()
    }

    private func take() -> Mail? {
        state.withLock { state in
            guard !state.mail.isEmpty else { return nil }
            defer { state.mail = Mail() }
            return state.mail
        }
    }
}
