import Synchronization

/// A mock server's one life: idle → starting → running → stopped. Shared by apns-mock and
/// fcm-mock, whose listeners differ but whose start-once / stop-once rules do not.
/// `Running` is what a started server holds (its channels, event loops, bound ports).
package final class ServerLifecycle<Running: Sendable>: Sendable {
    private enum State {
        case idle
        case starting
        case running(Running)
        case stopped
    }

    private let state = Mutex(State.idle)

    package init() {}

    /// What the running server holds; nil before `start` finished or after `stop`.
    package var running: Running? {
        state.withLock { if case .running(let running) = $0 { running } else { nil } }
    }

    /// Runs `bind` once: a second start throws `alreadyStarted`. A failed bind leaves the server
    /// idle, so it may be started again.
    package func start(alreadyStarted: any Error, _ bind: () async throws -> Running) async throws -> Running {
        try state.withLock { state in
            guard case .idle = state else { throw alreadyStarted }
            state = .starting
        }
        do {
            let running = try await bind()
            state.withLock { $0 = .running(running) }
            return running
        } catch {
            state.withLock { $0 = .idle }
            throw error
        }
    }

    /// Marks the server stopped (for good) and returns what it held if it was running.
    package func stop() -> Running? {
        state.withLock { state in
            defer { state = .stopped }
            if case .running(let running) = state { return running }
            return nil
        }
    }
}
