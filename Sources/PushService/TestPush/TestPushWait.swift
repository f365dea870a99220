import PushSending
import Synchronization

/// One push handed to a sender and waited for, with a deadline the wait keeps whatever the sender
/// does: a sender keeps its own deadline for the request, but not always for what comes before
/// it (FCM's and HMS's token exchange waits for the token endpoint), and a test push answers a
/// person waiting. Past `deadline` plus `grace` the wait ends with "no answer" and the send is
/// cancelled; a cancelled wait cancels the send too.
final class TestPushWait: Sendable {
    /// How long past the sender's deadline the wait gives it to say so itself.
    static let grace: Duration = .seconds(1)

    private struct State {
        var continuation: CheckedContinuation<PushSendResult, Never>?
        var handle: PushSendHandle?
        var timer: Task<Void, Never>?
        var cancelled = false
    }

    private let state = Mutex(State())

    private init() {}

    /// `push` through `sender`, at most `deadline` (plus `grace`).
    static func send(_ push: OutgoingPush, through sender: any PushSender, deadline: Duration) async -> PushSendResult {
        let wait = TestPushWait()
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                wait.state.withLock { $0.continuation = continuation }
                wait.hold(sender.submit(push, timeout: deadline) { wait.finish($0) })
                wait.arm(after: deadline + grace)
            }
        } onCancel: {
            wait.cancel()
        }
        return explained(result, statistics: sender.statistics)
    }

    /// The first result wins: the sender's, or the timer's; the other is ignored.
    private func finish(_ result: PushSendResult) {
        let (continuation, timer) = state.withLock { state in
            defer { (state.continuation, state.timer) = (nil, nil) }
            return (state.continuation, state.timer)
        }
        timer?.cancel()
        continuation?.resume(returning: result)
    }

    private func hold(_ handle: PushSendHandle) {
        let cancelled = state.withLock { state in
            state.handle = handle
            return state.cancelled
        }
        if cancelled { handle.cancel() }
    }

    private func arm(after limit: Duration) {
        let timer = Task {
            try? await Task.sleep(for: limit)
            guard !Task.isCancelled else { return }
            finish(PushSendResult(.retry(after: .zero), error: "no answer within \(limit)"))
            cancel()
        }
        // Answered already (at once, on the caller's thread): nothing to wait for.
        let answered = state.withLock { state in
            guard state.continuation != nil else { return true }
            state.timer = timer
            return false
        }
        if answered { timer.cancel() }
    }

    /// A push that got no answer in time, told apart: with no connection to the provider open,
    /// the provider was never reached (an endpoint the relay cannot connect to, as behind a
    /// firewall, while its reconnects back off), which the answer says rather than only that
    /// time ran out.
    static func explained(_ result: PushSendResult, statistics: PushSenderStatistics?) -> PushSendResult {
        guard result.status == nil, case .retry = result.outcome, let error = result.error, !error.hasPrefix("cannot connect"),
            let statistics, statistics.countsConnections, statistics.readyConnections == 0
        else { return result }
        var explained = result
        explained.error = error + ": no connection to the provider is open (the relay's log names the connection error)"
        return explained
    }

    private func cancel() {
        state.withLock { state in
            state.cancelled = true
            return state.handle
        }?.cancel()
    }
}
