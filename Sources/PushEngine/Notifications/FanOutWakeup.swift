import Synchronization

/// A wake-up for a loop that otherwise sleeps: `poke()` ends the current wait, or the next one at
/// once when nobody waits.
final class FanOutWakeup: Sendable {
    private struct State {
        var poked = false
        var waiter: CheckedContinuation<Void, Never>?
    }
    private let state = Mutex(State())

    func poke() {
        let waiter = state.withLock { s -> CheckedContinuation<Void, Never>? in
            defer { s.waiter = nil }
            if s.waiter == nil { s.poked = true }
            return s.waiter
        }
        waiter?.resume()
    }

    /// Returns when poked, after `limit`, or when the task is cancelled.
    func wait(atMost limit: Duration) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                try? await Task.sleep(for: limit)
                self.poke()
            }
            group.addTask { await self.waitForPoke() }
            await group.next()
            group.cancelAll()
            // The sleeper ends at once when cancelled and pokes the waiter if it still waits.
            await group.waitForAll()
        }
        state.withLock { $0.poked = false }
    }

    private func waitForPoke() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let poked = state.withLock { s in
                if s.poked {
                    s.poked = false
                    return true
                }
                s.waiter = continuation
                return false
            }
            if poked { continuation.resume() }
        }
    }
}
