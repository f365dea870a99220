/// When to try a delivery again: `max(suggested, exponential backoff with jitter)`, capped.
struct RetryPolicy: Sendable {
    let initial: Duration
    let maximum: Duration

    /// - Parameters:
    ///   - attempts: attempts made so far, including the one that just failed (≥ 1).
    ///   - suggested: the provider's Retry-After or the client's suggested minimum.
    ///   - random: a value in 0..<1 (injected so tests are deterministic).
    func delay(attempts: Int, suggested: Duration, random: Double) -> Duration {
        let exponent = min(max(attempts - 1, 0), 30)
        let base = initial * (1 << exponent)
        let jittered = base * (0.5 + random)
        return min(maximum, max(suggested, jittered))
    }
}
