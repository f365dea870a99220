/// Which HTTP connections the server keeps when it is full: the decisions only, with no I/O,
/// so each rule is testable with plain values (`ConnectionGate` applies them to channels).
///
/// - Below `maximum` open connections, a new one is admitted.
/// - At `maximum`, a new one is admitted and the connection idle the longest is to be closed
///   (idle: no request in progress — before its first request head, or between a response
///   and the next head), so idle keep-alive or stalled clients cannot lock out new ones.
/// - At `maximum` with every connection busy, the new one is refused (to be closed at once):
///   requests in progress are never cut off to make room.
///
/// A connection partway through sending its request head counts as idle: nothing has been
/// done for it yet, and that is exactly what a slowloris client looks like.
/// Every call is O(1); a shed connection leaves the table at once, so its close, reported
/// later, is ignored like any id the table does not hold.
struct ConnectionLimiter<Connection> {
    typealias ID = UInt64

    enum Admission {
        case admitted(ID)
        /// Admitted in place of `idle`, which the caller closes.
        case admittedClosing(ID, idle: Connection)
        /// Every connection is busy: the caller closes the new one.
        case refused
    }

    private struct Entry {
        let connection: Connection
        /// Request heads read whose response has not been written yet (HTTP/1.1 pipelining
        /// can read the next head before the previous response is out).
        var requestsInProgress: Int
    }

    let maximum: Int
    private var entries: [ID: Entry] = [:]
    private var idle = IdleQueue()
    private var nextID: ID = 0

    init(maximum: Int) {
        precondition(maximum > 0, "a connection limit must admit at least one connection")
        self.maximum = maximum
    }

    /// Connections admitted and neither closed nor shed.
    var openCount: Int { entries.count }
    var idleCount: Int { idle.count }
    /// Idle connections, idle the longest first (O(n): for tests and diagnostics).
    var idleOrder: [ID] { idle.ordered }

    mutating func open(_ connection: Connection) -> Admission {
        var shed: Connection?
        if entries.count >= maximum {
            guard let oldest = idle.removeFirst() else { return .refused }
            shed = entries.removeValue(forKey: oldest)?.connection
        }
        nextID += 1
        let id = nextID
        entries[id] = Entry(connection: connection, requestsInProgress: 0)
        idle.append(id)
        if let shed { return .admittedClosing(id, idle: shed) }
        return .admitted(id)
    }

    /// A request head was read on `id`.
    mutating func requestStarted(_ id: ID) {
        guard entries[id] != nil else { return }
        entries[id]!.requestsInProgress += 1
        idle.remove(id)
    }

    /// A response was written in full on `id`. An answer without a request (the 400 for a
    /// head that failed to parse) leaves the count at zero.
    mutating func responseFinished(_ id: ID) {
        guard let entry = entries[id], entry.requestsInProgress > 0 else { return }
        entries[id]!.requestsInProgress -= 1
        if entry.requestsInProgress == 1 { idle.append(id) }
    }

    /// `id` closed (for any reason): it no longer counts.
    mutating func closed(_ id: ID) {
        guard entries.removeValue(forKey: id) != nil else { return }
        idle.remove(id)
    }
}

extension ConnectionLimiter.Admission: Equatable where Connection: Equatable {}
