/// Which HTTP connections the server keeps when it is full: the decisions only, with no I/O,
/// so each rule is testable with plain values (`ConnectionGate` applies them to channels).
/// Each connection is in one `RequestProgress.Phase`, reported as it changes.
///
/// - Below `maximum` open connections, a new one is admitted.
/// - At `maximum`, a new one is admitted and one that has not finished sending a request is
///   to be closed, in this order:
///   1. the connection idle the longest (kept alive between a response and the next
///      request): it loses no work, its client reconnects;
///   2. the one that has been receiving its current request the longest (some of a head, or
///      a head and part of a body): slowloris heads and trickled bodies;
///   3. the one accepted the longest ago among those nothing has been read from yet. They go
///      last because they cannot be judged: a client that sends its whole request at once is
///      fresh until its first read, after which it is handling; under a flood of reconnecting
///      slow clients, shedding the oldest of everyone would close it in that window.
///   Keep-alive leftovers, slowloris heads and trickled bodies cannot lock out new clients.
/// - At `maximum` with every connection handling a request received in full, the new one is
///   refused (to be closed at once): requests being handled are never cut off to make room.
///
/// Every call is O(1); a shed connection leaves the table at once, so its close, reported
/// later, is ignored like any id the table does not hold.
struct ConnectionLimiter<Connection> {
    typealias ID = UInt64
    typealias Phase = RequestProgress.Phase

    enum Admission {
        case admitted(ID)
        /// Admitted in place of `shed`, which was in phase `was` (`.idle` or `.receiving`) and
        /// which the caller closes.
        case admittedClosing(ID, shed: Connection, was: Phase)
        /// Every connection is handling a request: the caller closes the new one.
        case refused
    }

    private struct Entry {
        let connection: Connection
        var phase: Phase
    }

    let maximum: Int
    private var entries: [ID: Entry] = [:]
    private var fresh = ConnectionQueue()
    private var idle = ConnectionQueue()
    private var receiving = ConnectionQueue()
    private var nextID: ID = 0

    init(maximum: Int) {
        precondition(maximum > 0, "a connection limit must admit at least one connection")
        self.maximum = maximum
    }

    /// Connections admitted and neither closed nor shed.
    var openCount: Int { entries.count }
    var freshCount: Int { fresh.count }
    var idleCount: Int { idle.count }
    var receivingCount: Int { receiving.count }
    /// Idle connections, idle the longest first (O(n): for tests and diagnostics).
    var idleOrder: [ID] { idle.ordered }
    /// Connections receiving a request, the one at it the longest first (O(n), likewise).
    var receivingOrder: [ID] { receiving.ordered }
    /// Connections nothing was read from yet, accepted the longest ago first (O(n), likewise).
    var freshOrder: [ID] { fresh.ordered }

    mutating func open(_ connection: Connection) -> Admission {
        var shed: (connection: Connection, phase: Phase)?
        if entries.count >= maximum {
            guard let oldest = idle.removeFirst() ?? receiving.removeFirst() ?? fresh.removeFirst() else { return .refused }
            shed = entries.removeValue(forKey: oldest).map { ($0.connection, $0.phase) }
        }
        nextID += 1
        let id = nextID
        entries[id] = Entry(connection: connection, phase: .fresh)
        fresh.append(id)
        if let shed { return .admittedClosing(id, shed: shed.connection, was: shed.phase) }
        return .admitted(id)
    }

    /// `id` moved to `phase`. A connection that stays in a phase keeps its place in the queue:
    /// one receiving a head and then its body has been receiving since the head began.
    mutating func update(_ id: ID, to phase: Phase) {
        guard let old = entries[id]?.phase, old != phase else { return }
        entries[id]?.phase = phase
        inQueue(of: old) { $0.remove(id) }
        inQueue(of: phase) { $0.append(id) }
    }

    /// `id` closed (for any reason): it no longer counts.
    mutating func closed(_ id: ID) {
        guard let entry = entries.removeValue(forKey: id) else { return }
        inQueue(of: entry.phase) { $0.remove(id) }
    }

    /// Applies `change` to the queue connections in `phase` wait in; there is none for those
    /// handling a request, which are never shed.
    private mutating func inQueue(of phase: Phase, _ change: (inout ConnectionQueue) -> Void) {
        switch phase {
        case .fresh: change(&fresh)
        case .idle: change(&idle)
        case .receiving: change(&receiving)
        case .handling: break
        }
    }
}

extension ConnectionLimiter.Admission: Equatable where Connection: Equatable {}
