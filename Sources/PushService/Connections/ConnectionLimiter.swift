/// Which HTTP connections the server keeps when it is full: the decisions only, with no I/O,
/// so each rule is testable with plain values (`ConnectionGate` applies them to channels).
/// Each connection is in one `RequestProgress.Phase`, reported as it changes.
///
/// - Below `maximum` open connections, a new one is admitted.
/// - At `maximum`, a new one is admitted and one that has not finished sending a request is
///   to be closed, in this order:
///   1. the connection idle the longest (kept alive between a response and the next
///      request): it loses no work, its client reconnects;
///   2. the connection waiting on its client the longest: accepted with nothing read yet,
///      receiving a request (some of a head, or a head and part of a body), counted from its
///      accept or from the start of its request on a kept-alive connection, or with a response
///      its client has not read (counted from the response's start or last progress). A client
///      that sends its request at once, or reads its answer at once, waits for moments and is the
///      youngest; a silent, trickling or never-reading client grows old. (Shedding all receiving connections before any silent one closed
///      well-behaved webhooks mid-body under a flood of silent reconnecting clients, once the
///      receiving ones left were those; shedding silent ones first closed new good connections
///      before their first read.)
///   Keep-alive leftovers, silent clients, slowloris heads, trickled bodies and clients that never
///   read their answers cannot lock out new clients.
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
        /// Admitted in place of `shed`, which was in phase `was` (`.idle`, `.fresh`, `.receiving`
        /// or `.sending`) and which the caller closes.
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
    private var idle = ConnectionQueue()
    /// Fresh, receiving and sending connections, waiting on their clients the longest first.
    private var unfinished = ConnectionQueue()
    private(set) var freshCount = 0
    private(set) var receivingCount = 0
    private(set) var sendingCount = 0
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
    /// Fresh, receiving and sending connections, waiting the longest first (O(n), likewise).
    var unfinishedOrder: [ID] { unfinished.ordered }

    mutating func open(_ connection: Connection) -> Admission {
        var shed: (connection: Connection, phase: Phase)?
        if entries.count >= maximum {
            guard let oldest = idle.removeFirst() ?? unfinished.removeFirst(),
                let entry = entries.removeValue(forKey: oldest)
            else { return .refused }
            count(entry.phase, -1)
            shed = (entry.connection, entry.phase)
        }
        nextID += 1
        let id = nextID
        entries[id] = Entry(connection: connection, phase: .fresh)
        unfinished.append(id)
        count(.fresh, 1)
        if let shed { return .admittedClosing(id, shed: shed.connection, was: shed.phase) }
        return .admitted(id)
    }

    /// `id` moved to `phase`. A connection that stays unfinished keeps its place in the queue:
    /// one accepted and then receiving, or receiving a head and then its body, has been
    /// unfinished since the first of these began.
    mutating func update(_ id: ID, to phase: Phase) {
        guard let old = entries[id]?.phase, old != phase else { return }
        entries[id]?.phase = phase
        count(old, -1)
        count(phase, 1)
        if old.isUnfinished && phase.isUnfinished { return }
        switch old {
        case .idle: idle.remove(id)
        case .fresh, .receiving, .sending: unfinished.remove(id)
        case .handling: break
        }
        switch phase {
        case .idle: idle.append(id)
        case .fresh, .receiving, .sending: unfinished.append(id)
        case .handling: break
        }
    }

    /// `id` closed (for any reason): it no longer counts.
    mutating func closed(_ id: ID) {
        guard let entry = entries.removeValue(forKey: id) else { return }
        count(entry.phase, -1)
        idle.remove(id)
        unfinished.remove(id)
    }

    private mutating func count(_ phase: Phase, _ change: Int) {
        switch phase {
        case .fresh: freshCount += change
        case .receiving: receivingCount += change
        case .sending: sendingCount += change
        case .idle, .handling: break
        }
    }
}

extension RequestProgress.Phase {
    /// Fresh, receiving or sending: waiting on its client (for a request, the rest of one, or
    /// reading an answer).
    var isUnfinished: Bool { self == .fresh || self == .receiving || self == .sending }
}

extension ConnectionLimiter.Admission: Equatable where Connection: Equatable {}
