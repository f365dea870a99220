import Synchronization

/// Every unsent push, per app — waiting in SQLite, handed to the dispatcher, on the wire, or
/// waiting for a retry — and how fast each app's pushes have been leaving, so the webhook can
/// keep a promise: an accepted push waits at most `maxBacklog` of measured sending capacity.
/// Past that the webhook answers 503 with Retry-After (Sendbird retries) instead of accepting
/// more than it can send in time.
///
/// The decisions are the value type `State`, tested without I/O; the ledger only guards it.
public final class BacklogLedger: Sendable {
    /// What the webhook should do with an event of `count` pushes.
    public enum Admission: Sendable, Equatable {
        case admit
        /// Over the promise: try again after this many seconds.
        case refuse(retryAfterSeconds: Int)
    }

    public struct State: Sendable {
        /// Capacity is the most pushes an app finished in one second over this many seconds:
        /// while a backlog exists that is what the app's providers take; while idle it is the last
        /// burst's figure, not the idle rate.
        static let windowSeconds = 10
        /// Assumed capacity (pushes/s) before anything was measured, or when less was: a fresh
        /// relay, or one whose provider just came back, may queue this much times `maxBacklog`.
        let floorPerSecond: Int
        let maxBacklogMs: Int64

        struct AppState: Sendable {
            var unsent = 0
            /// Pushes finished per second: `finished[second % windowSeconds]`, for `second`s
            /// recorded in `seconds`.
            var finished = [Int](repeating: 0, count: State.windowSeconds)
            var seconds = [Int64](repeating: -1, count: State.windowSeconds)
        }

        var apps: [String: AppState] = [:]
        /// Unsent pushes by the second they were accepted (all apps), and those seconds in
        /// ascending order: the oldest unsent push is the first second still counted.
        var unsentBySecond: [Int64: Int] = [:]
        var seconds: [Int64] = []

        init(floorPerSecond: Int, maxBacklogMs: Int64) {
            self.floorPerSecond = max(1, floorPerSecond)
            self.maxBacklogMs = maxBacklogMs
        }

        var totalUnsent: Int { apps.values.reduce(0) { $0 + $1.unsent } }

        func unsent(app: String) -> Int { apps[app]?.unsent ?? 0 }

        mutating func seed(_ counts: [String: Int], bySecond: [Int64: Int] = [:]) {
            for (app, count) in counts { apps[app, default: AppState()].unsent = count }
            for (second, count) in bySecond { add(count, atSecond: second) }
        }

        /// The store's own count, read while this relay kept counting: replaces each app's
        /// running count (apps absent from `counts` have none unsent). On a shared queue other
        /// relays finish pushes this one counted, which only the store sees.
        mutating func reconcile(_ counts: [String: Int]) {
            for app in apps.keys where counts[app] == nil { apps[app]?.unsent = 0 }
            for (app, count) in counts { apps[app, default: AppState()].unsent = count }
        }

        /// - Parameter countsAge: false for badge pushes, which wait out their interval on
        ///   purpose: counted as unsent, left out of the oldest unsent push's age.
        mutating func accepted(app: String, count: Int, atMs: Int64, countsAge: Bool = true) {
            apps[app, default: AppState()].unsent += count
            if countsAge { add(count, atSecond: atMs / 1000) }
        }

        private mutating func add(_ count: Int, atSecond second: Int64) {
            guard count > 0 else { return }
            if unsentBySecond[second] == nil {
                // Almost always the newest second; an earlier one (a clock step) goes in order.
                if let last = seconds.last, last > second {
                    var low = 0, high = seconds.count
                    while low < high {
                        let middle = (low + high) / 2
                        if seconds[middle] < second { low = middle + 1 } else { high = middle }
                    }
                    seconds.insert(second, at: low)
                } else {
                    seconds.append(second)
                }
            }
            unsentBySecond[second, default: 0] += count
        }

        /// When the oldest unsent push was accepted (Unix ms, to the second); nil when none is.
        mutating func oldestUnsentMs() -> Int64? {
            // Seconds whose pushes have all left are dropped from the front as they are met.
            var drop = 0
            while drop < seconds.count, (unsentBySecond[seconds[drop]] ?? 0) <= 0 { drop += 1 }
            if drop > 0 { seconds.removeFirst(drop) }
            return seconds.first.map { $0 * 1000 }
        }

        /// One push reached a final state at `nowMs`; it was accepted at `acceptedAtMs`.
        mutating func finished(app: String, nowMs: Int64, acceptedAtMs: Int64? = nil) {
            if let acceptedAtMs {
                let second = acceptedAtMs / 1000
                if let count = unsentBySecond[second] {
                    if count <= 1 { unsentBySecond[second] = nil } else { unsentBySecond[second] = count - 1 }
                }
            }
            var state = apps[app, default: AppState()]
            state.unsent = max(0, state.unsent - 1)
            let second = nowMs / 1000
            let slot = Int(second % Int64(Self.windowSeconds))
            if state.seconds[slot] != second {
                state.seconds[slot] = second
                state.finished[slot] = 0
            }
            state.finished[slot] += 1
            apps[app] = state
        }

        /// Pushes per second the app's pushes have been leaving at (see `windowSeconds`).
        func capacity(app: String, nowMs: Int64) -> Int {
            guard let state = apps[app] else { return floorPerSecond }
            let now = nowMs / 1000
            var best = 0
            for slot in 0..<Self.windowSeconds where state.seconds[slot] > now - Int64(Self.windowSeconds) {
                best = max(best, state.finished[slot])
            }
            return max(best, floorPerSecond)
        }

        func admit(app: String, count: Int, nowMs: Int64) -> Admission {
            guard maxBacklogMs > 0, count > 0 else { return .admit }
            let capacity = capacity(app: app, nowMs: nowMs)
            let allowed = Int(Int64(capacity) * maxBacklogMs / 1000)
            let unsent = unsent(app: app)
            let after = unsent + count
            // An event larger than the whole allowance is taken when nothing of its app waits:
            // refusing it then would refuse it forever.
            guard after > allowed, unsent > 0 else { return .admit }
            // Seconds until enough has left to take this event.
            let excess = after - allowed
            return .refuse(retryAfterSeconds: max(1, (excess + capacity - 1) / capacity))
        }

        /// Whether a notification's fan-out may queue `count` more pushes for `app`: only within
        /// `fanOutShare` of the promise, so the app's chat webhooks keep the rest; else how long to
        /// wait (ms) for enough to leave. A fan-out with nothing of its app waiting always goes on.
        func fanOutWait(app: String, count: Int, nowMs: Int64) -> Int64? {
            guard maxBacklogMs > 0, count > 0 else { return nil }
            let capacity = capacity(app: app, nowMs: nowMs)
            let allowed = Int(Double(Int64(capacity) * maxBacklogMs / 1000) * Self.fanOutShare)
            let unsent = unsent(app: app)
            guard unsent + count > allowed, unsent > 0 else { return nil }
            let excess = Int64(unsent + count - allowed)
            return min(max(excess * 1000 / Int64(capacity), 100), 5_000)
        }

        /// The part of an app's backlog promise a fan-out may fill.
        static let fanOutShare = 0.5
    }

    private let state: Mutex<State>

    /// - Parameters:
    ///   - maxBacklog: the promise; zero turns admission off (everything is accepted).
    ///   - floorPerSecond: capacity assumed before any is measured.
    public init(maxBacklog: Duration, floorPerSecond: Int = 1_000) {
        state = Mutex(State(floorPerSecond: floorPerSecond, maxBacklogMs: maxBacklog.milliseconds))
    }

    public var totalUnsent: Int { state.withLock { $0.totalUnsent } }
    public func unsent(app: String) -> Int { state.withLock { $0.unsent(app: app) } }
    /// Every app's unsent pushes (an app seen once stays, at 0), for `/metrics`: one copy of a
    /// dictionary as long as the apps, taken at scrape time, never on a push's path.
    public var unsentByApp: [String: Int] { state.withLock { $0.apps.mapValues(\.unsent) } }

    /// The unsent pushes found in the store at start: per app, and by the second they were accepted.
    public func seed(_ counts: [String: Int], bySecond: [Int64: Int] = [:]) {
        state.withLock { $0.seed(counts, bySecond: bySecond) }
    }
    /// Replaces each app's running count with the store's (see `State.reconcile`).
    public func reconcile(_ counts: [String: Int]) {
        state.withLock { $0.reconcile(counts) }
    }

    /// An event's pushes were committed (accepted at `atMs`); see `State.accepted`.
    public func accepted(app: String, count: Int, atMs: Int64, countsAge: Bool = true) {
        state.withLock { $0.accepted(app: app, count: count, atMs: atMs, countsAge: countsAge) }
    }
    /// One push reached a final state (sent, failed, expired, token invalid).
    public func finished(app: String, nowMs: Int64, acceptedAtMs: Int64? = nil) {
        state.withLock { $0.finished(app: app, nowMs: nowMs, acceptedAtMs: acceptedAtMs) }
    }
    /// How long the oldest unsent push has waited at `nowMs`, in ms (0 when nothing waits).
    public func oldestUnsentAgeMs(nowMs: Int64) -> Int64 {
        state.withLock { $0.oldestUnsentMs() }.map { max(0, nowMs - $0) } ?? 0
    }
    /// `State.fanOutWait`: nil to go on, else the milliseconds to wait.
    public func fanOutWait(app: String, count: Int, nowMs: Int64) -> Int64? {
        state.withLock { $0.fanOutWait(app: app, count: count, nowMs: nowMs) }
    }

    public func admit(app: String, count: Int, nowMs: Int64) -> Admission {
        state.withLock { $0.admit(app: app, count: count, nowMs: nowMs) }
    }
}
