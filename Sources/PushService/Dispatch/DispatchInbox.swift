import PushStore
import Synchronization

/// Deliveries the webhook hands over right after committing them (stored as in flight), so the
/// common path never claims from SQLite: no SELECT and no UPDATE per delivery.
///
/// Its room, at most the dispatcher's window, bounds the memory of this path. A unit of room is
/// taken by `reserve` for each delivery about to be committed and comes back exactly once, in
/// `giveBack`: when the reservation is released, when the inbox refuses or drops the hand-off,
/// or when the dispatcher is done with the delivery.
final class DispatchInbox: Sendable {
    private struct State {
        /// Reserved and not yet given back: reservations, handed over, and handed-off sends.
        var reserved = 0
        /// Handed over, not yet taken by the dispatcher.
        var ready: [DeliveryRecord] = []
        /// Only between the dispatcher's `resumeInFlight()` at start and its shutdown.
        var open = false

        mutating func giveBack(_ count: Int) {
            reserved -= count
            assert(reserved >= 0, "hand-off room given back twice")
        }
    }

    private let state = Mutex(State())
    let window: Int

    init(window: Int) {
        self.window = window
    }

    /// Opens the hand-off path (the dispatcher has put back what a crash left in flight).
    func open() {
        state.withLock { $0.open = true }
    }

    /// Room for `count` deliveries, or nil when closed or full.
    func reserve(_ count: Int) -> DispatchReservation? {
        let granted = state.withLock { state in
            guard state.open, count > 0, state.reserved + count <= window else { return false }
            state.reserved += count
            return true
        }
        return granted ? DispatchReservation(inbox: self, count: count) : nil
    }

    /// Room of deliveries the dispatcher is done with, or of a dropped reservation.
    func giveBack(_ count: Int) {
        state.withLock { $0.giveBack(count) }
    }

    /// Takes deliveries committed under `reservation`, which becomes theirs. False when closed:
    /// the reservation is given back and the caller puts the deliveries back to pending.
    func handOff(_ reservation: consuming DispatchReservation, _ deliveries: [DeliveryRecord]) -> Bool {
        precondition(deliveries.count <= reservation.count, "more deliveries than reserved")
        let count = reservation.transfer()
        return state.withLock { state in
            guard state.open else {
                state.giveBack(count)
                return false
            }
            // Room reserved for deliveries that were not committed goes back at once.
            state.giveBack(count - deliveries.count)
            state.ready.append(contentsOf: deliveries)
            return true
        }
    }

    /// What was handed over since the last call; each holds its room until `giveBack(1)`.
    func take() -> [DeliveryRecord] {
        state.withLock { state in
            defer { state.ready.removeAll(keepingCapacity: true) }
            return state.ready
        }
    }

    /// Closes the hand-off path and returns what was handed over but not taken; their room goes
    /// back here.
    func close() -> [DeliveryRecord] {
        state.withLock { state in
            state.open = false
            state.giveBack(state.ready.count)
            defer { state.ready = [] }
            return state.ready
        }
    }

    /// Reserved room not given back yet (for tests and assertions).
    var reserved: Int { state.withLock { $0.reserved } }
}
