import Foundation

/// Runs blocking work (socket reads, waiting for a child process) on a thread of its own.
///
/// Swift's cooperative pool has one thread per core: two cores, two threads. A test that blocks
/// one of them halves what every other test running beside it gets, and on a loaded machine that
/// turned other tests' deadlines into failures. Blocking calls therefore never run on it.
public func offThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}

/// Polls `condition` every 20 ms until it holds or `seconds` pass, without holding a thread.
public func eventually(within seconds: Double, _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return condition()
}
