/// One counted fault as armed: the next requests it meets get it, one each. Arming adds to the
/// count (a missing or negative count arms nothing).
package struct FaultCounter: Sendable, Hashable {
    package private(set) var remaining = 0

    package init() {}

    package mutating func arm(_ count: Int?) {
        remaining += max(0, count ?? 0)
    }

    /// Spends one on the request at hand; false when none is left.
    package mutating func take() -> Bool {
        guard remaining > 0 else { return false }
        remaining -= 1
        return true
    }

    /// What is left, as the admin API lists it: nil for none.
    package var armed: Int? { remaining > 0 ? remaining : nil }

    package var isEmpty: Bool { remaining == 0 }
}
