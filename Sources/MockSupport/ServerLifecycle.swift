import Synchronization

/// A mock server's one life: idle → starting → running → stopped. Shared by the mocks, whose
/// listeners differ but whose start-once / stop-once rules do not.
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
    /// idle, so it may be started again. A `stop()` while `bind` runs wins: what `bind` made is
    /// handed to `release` and the start throws `stopped`, so nothing keeps listening after its
    /// server was shut down.
    package func start(
        alreadyStarted: any Error, stopped: any Error, _ bind: () async throws -> Running,
        release: (Running) async -> Void
    ) async throws -> Running {
        try state.withLock { state in
            guard case .idle = state else { throw alreadyStarted }
            state = .starting
        }
        let running: Running
        do {
            running = try await bind()
        } catch {
            state.withLock { if case .starting = $0 { $0 = .idle } }
            throw error
        }
        let kept = state.withLock { state in
            guard case .starting = state else { return false }
            state = .running(running)
            return true
        }
        guard kept else {
            await release(running)
            throw stopped
        }
        return running
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
