/// Room in the dispatcher's hand-off path for deliveries about to be committed as in flight.
///
/// Non-copyable, so it is used exactly once: handed off with the committed deliveries
/// (`Dispatcher.handOff`), released, or dropped (an error thrown past it) — the last two give
/// the room back. Using it twice does not compile.
public struct DispatchReservation: ~Copyable, Sendable {
    private let inbox: DispatchInbox
    /// Deliveries this room is for.
    public let count: Int
    /// Whose share of the room it is.
    public let app: String
    /// Room still to give back when this ends: zero once the inbox took it over. (`discard self`
    /// would say so more directly, but is not allowed with a class reference stored.)
    private var held: Int

    init(inbox: DispatchInbox, count: Int, app: String) {
        self.inbox = inbox
        self.count = count
        self.app = app
        held = count
    }

    /// The deliveries will not be handed off (duplicate event): give the room back.
    public consuming func release() {}

    /// The inbox takes the room over; nothing is given back here.
    consuming func transfer() -> Int {
        held = 0
        return count
    }

    deinit {
        if held > 0 { inbox.giveBack(held, app: app) }
    }
}
