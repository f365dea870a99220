/// A `RetryAfterFault` as armed: the requests left to turn away, and the `Retry-After` each gets.
/// Counts add up; the fault armed last sets the `Retry-After` (a negative one counts as 0).
package struct RetryAfterCounter: Sendable, Hashable {
    private var count = FaultCounter()
    /// Seconds; none when nil.
    package private(set) var retryAfter: Int?

    package init() {}

    package mutating func arm(_ fault: RetryAfterFault?) {
        guard let fault else { return }
        count.arm(fault.count)
        retryAfter = fault.retryAfter.map { max(0, $0) }
    }

    /// Whether the request at hand is turned away, spending one.
    package mutating func take() -> Bool {
        count.take()
    }

    /// What is left, as the admin API lists it: nil for none.
    package var armed: RetryAfterFault? {
        count.armed.map { RetryAfterFault(count: $0, retryAfter: retryAfter) }
    }

    package var isEmpty: Bool { count.isEmpty }
}
