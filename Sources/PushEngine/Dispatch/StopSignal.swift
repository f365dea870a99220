import Synchronization

/// A one-shot event: `fire()` once; `wait()` returns when it has fired (at once, if it had).
final class StopSignal: Sendable {
    private struct State {
        var fired = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }
    private let state = Mutex(State())

    func fire() {
        let waiters = state.withLock { s -> [CheckedContinuation<Void, Never>] in
            guard !s.fired else { return [] }
            s.fired = true
            defer { s.waiters = [] }
            return s.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let fired = state.withLock { s in
                if !s.fired { s.waiters.append(continuation) }
                return s.fired
            }
            if fired { continuation.resume() }
        }
    }
}
