import StoreContract
import Synchronization

/// Deliveries the webhook hands over right after committing them (stored as in flight), so the
/// common path never claims from SQLite: no SELECT and no UPDATE per delivery.
///
/// Its room, at most the dispatcher's window, bounds the memory of this path, and is shared out
/// per app (`HandOffShares`). A unit of room is taken by `reserve` for each delivery about to be
/// committed and comes back exactly once, in `giveBack`: when the reservation is released, when
/// the inbox refuses or drops the hand-off, or when the dispatcher is done with the delivery.
final class DispatchInbox: Sendable {
    private struct State {
        var shares: HandOffShares
        /// Handed over, not yet taken by the dispatcher.
        var ready: [DeliveryRecord] = []
        /// Only between the dispatcher's `resumeInFlight()` at start and its shutdown.
        var open = false
    }

    private let state: Mutex<State>
    let window: Int

    init(window: Int) {
        self.window = window
        state = Mutex(State(shares: HandOffShares(window: window)))
    }

    /// Opens the hand-off path (the dispatcher has put back what a crash left in flight).
    func open() {
        state.withLock { $0.open = true }
    }

    /// Room for `count` deliveries of `app`, or nil when closed, full, or past the app's share.
    func reserve(_ count: Int, app: String, nowMs: Int64) -> DispatchReservation? {
        let granted = state.withLock { state in
            state.open && state.shares.reserve(count, app: app, nowMs: nowMs)
        }
        return granted ? DispatchReservation(inbox: self, count: count, app: app) : nil
    }

    /// Room of deliveries the dispatcher is done with, or of a dropped reservation.
    func giveBack(_ count: Int, app: String) {
        state.withLock { $0.shares.giveBack(count, app: app) }
    }

    /// Takes deliveries committed under `reservation`, which becomes theirs. False when closed:
    /// the reservation is given back and the caller puts the deliveries back to pending.
    func handOff(_ reservation: consuming DispatchReservation, _ deliveries: [DeliveryRecord]) -> Bool {
        precondition(deliveries.count <= reservation.count, "more deliveries than reserved")
        let app = reservation.app
        let count = reservation.transfer()
        return state.withLock { state in
            guard state.open else {
                state.shares.giveBack(count, app: app)
                return false
            }
            // Room reserved for deliveries that were not committed goes back at once.
            state.shares.giveBack(count - deliveries.count, app: app)
            state.ready.append(contentsOf: deliveries)
            return true
        }
    }

    /// What was handed over since the last call; each holds its room until `giveBack`.
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
            for delivery in state.ready { state.shares.giveBack(1, app: delivery.appID) }
            defer { state.ready = [] }
            return state.ready
        }
    }

    /// Reserved room not given back yet (for tests and assertions).
    var reserved: Int { state.withLock { $0.shares.total } }
}
