/// Each app's share of the dispatcher's hand-off room (`DispatchInbox`), decided without I/O.
///
/// The room is the dispatcher's window. An app alone takes all of it; with others active each
/// may hold at most an equal part (`window / active`), so one tenant's burst cannot fill the
/// path and leave every other app's pushes behind it. "Active" counts apps holding room now and
/// apps refused in the last `wantingMs`: without the latter an app that keeps the room full
/// would find itself alone at each of its own requests, and the others would never get in.
/// Pushes refused here are not lost: they are committed as pending and claimed from the store,
/// whose claims are shared out per app as well.
struct HandOffShares: Sendable {
    /// How long a refused app still counts as wanting room.
    static let wantingMs: Int64 = 1_000

    let window: Int
    private(set) var total = 0
    private var held: [String: Int] = [:]
    private var refusedAt: [String: Int64] = [:]

    init(window: Int) {
        self.window = window
    }

    func held(by app: String) -> Int { held[app] ?? 0 }

    /// Room for `count` of `app`'s deliveries at `nowMs`, or false (remembered as wanting).
    mutating func reserve(_ count: Int, app: String, nowMs: Int64) -> Bool {
        guard count > 0 else { return false }
        // (Counted without building a set: this runs for every accepted event.)
        if !refusedAt.isEmpty { refusedAt = refusedAt.filter { nowMs - $0.value < Self.wantingMs } }
        let mine = held[app] ?? 0
        var active = held.count + (mine == 0 && refusedAt[app] == nil ? 1 : 0)
        for wanting in refusedAt.keys where held[wanting] == nil { active += 1 }
        let share = max(1, window / active)
        guard total + count <= window, mine + count <= share else {
            refusedAt[app] = nowMs
            return false
        }
        held[app] = mine + count
        total += count
        return true
    }

    /// `count` units of `app`'s room come back.
    mutating func giveBack(_ count: Int, app: String) {
        guard count > 0 else { return }
        let mine = held[app] ?? 0
        assert(mine >= count, "hand-off room given back twice")
        if mine <= count { held[app] = nil } else { held[app] = mine - count }
        total -= min(mine, count)
    }
}
