import MockSupport

/// Faults armed through `POST /faults` (or `FCMMockServer.arm`), each for the next N requests.
///
/// ```json
/// {"unregistered": ["tok1", "tok2"], "quota_exceeded": {"count": 30, "retry_after": 1},
///  "unavailable": 20, "internal": 10, "sender_id_mismatch": 0, "third_party_auth_error": 0,
///  "drop_connections": 3, "token_endpoint_unavailable": 1, "silent_connections": 1}
/// ```
///
/// Every field is optional and adds to what is armed. `unregistered` marks tokens for good (404
/// `UNREGISTERED` from then on, until `reset`); the counted ones answer that many `messages:send`
/// requests (`token_endpoint_unavailable`: token requests) and are then spent. `silent_connections`
/// silences the connection of that many next requests: it stops reading and sending (no answer, no
/// PING ACK) and stays open until the client gives up on it (`ConnectionSilencer`).
public struct FCMMockFaults: Sendable, Codable, Hashable {
    public var unregistered: [String]?
    public var quotaExceeded: QuotaExceeded?
    public var unavailable: Int?
    public var `internal`: Int?
    public var senderIDMismatch: Int?
    public var thirdPartyAuthError: Int?
    /// Close the connection a send arrived on, without an answer.
    public var dropConnections: Int?
    /// Answer token requests 503.
    public var tokenEndpointUnavailable: Int?
    /// Silence the connection a request arrived on (it reads and sends nothing more).
    public var silentConnections: Int?

    /// That many `messages:send` answered 429, with `Retry-After` when `retryAfter` is set (none:
    /// the client then waits Google's 60 s).
    public typealias QuotaExceeded = RetryAfterFault

    public init(
        unregistered: [String]? = nil, quotaExceeded: QuotaExceeded? = nil, unavailable: Int? = nil, internal: Int? = nil,
        senderIDMismatch: Int? = nil, thirdPartyAuthError: Int? = nil, dropConnections: Int? = nil,
        tokenEndpointUnavailable: Int? = nil, silentConnections: Int? = nil
    ) {
        self.unregistered = unregistered
        self.quotaExceeded = quotaExceeded
        self.unavailable = unavailable
        self.internal = `internal`
        self.senderIDMismatch = senderIDMismatch
        self.thirdPartyAuthError = thirdPartyAuthError
        self.dropConnections = dropConnections
        self.tokenEndpointUnavailable = tokenEndpointUnavailable
        self.silentConnections = silentConnections
    }

    enum CodingKeys: String, CodingKey {
        case unregistered
        case quotaExceeded = "quota_exceeded"
        case unavailable
        case `internal`
        case senderIDMismatch = "sender_id_mismatch"
        case thirdPartyAuthError = "third_party_auth_error"
        case dropConnections = "drop_connections"
        case tokenEndpointUnavailable = "token_endpoint_unavailable"
        case silentConnections = "silent_connections"
    }
}

/// The armed counts, and what the next request gets: a value, decided without I/O.
struct FaultBook: Sendable, Hashable {
    private(set) var dropConnections = 0
    private(set) var quotaExceeded = 0
    private(set) var quotaRetryAfter: Int?
    private(set) var unavailable = 0
    private(set) var `internal` = 0
    private(set) var senderIDMismatch = 0
    private(set) var thirdPartyAuthError = 0
    private(set) var tokenEndpointUnavailable = 0
    private(set) var silentConnections = 0

    var isEmpty: Bool {
        dropConnections + quotaExceeded + unavailable + `internal` + senderIDMismatch + thirdPartyAuthError
            + tokenEndpointUnavailable + silentConnections == 0
    }

    mutating func arm(_ faults: FCMMockFaults) {
        dropConnections += max(0, faults.dropConnections ?? 0)
        if let quota = faults.quotaExceeded {
            quotaExceeded += max(0, quota.count)
            quotaRetryAfter = quota.retryAfter
        }
        unavailable += max(0, faults.unavailable ?? 0)
        `internal` += max(0, faults.internal ?? 0)
        senderIDMismatch += max(0, faults.senderIDMismatch ?? 0)
        thirdPartyAuthError += max(0, faults.thirdPartyAuthError ?? 0)
        tokenEndpointUnavailable += max(0, faults.tokenEndpointUnavailable ?? 0)
        silentConnections += max(0, faults.silentConnections ?? 0)
    }

    /// What is still armed, in the admin API's shape.
    var armed: FCMMockFaults {
        func count(_ n: Int) -> Int? { n > 0 ? n : nil }
        return FCMMockFaults(
            quotaExceeded: quotaExceeded > 0 ? .init(count: quotaExceeded, retryAfter: quotaRetryAfter) : nil,
            unavailable: count(unavailable), internal: count(`internal`), senderIDMismatch: count(senderIDMismatch),
            thirdPartyAuthError: count(thirdPartyAuthError), dropConnections: count(dropConnections),
            tokenEndpointUnavailable: count(tokenEndpointUnavailable), silentConnections: count(silentConnections))
    }

    /// Whether the next request's connection goes silent (checked before anything else).
    mutating func takeSilence() -> Bool {
        guard silentConnections > 0 else { return false }
        silentConnections -= 1
        return true
    }

    /// Whether the next `messages:send` loses its connection (checked before anything else).
    mutating func takeDrop() -> Bool {
        guard dropConnections > 0 else { return false }
        dropConnections -= 1
        return true
    }

    /// The error answer the next authenticated `messages:send` gets, if any, spending one of its
    /// count, in a fixed order.
    mutating func takeAnswerFault() -> FCMMockAnswer? {
        if quotaExceeded > 0 {
            quotaExceeded -= 1
            return .quotaExceeded(retryAfterSeconds: quotaRetryAfter)
        }
        if unavailable > 0 {
            unavailable -= 1
            return .unavailable
        }
        if `internal` > 0 {
            `internal` -= 1
            return .internal
        }
        if senderIDMismatch > 0 {
            senderIDMismatch -= 1
            return .senderIDMismatch
        }
        if thirdPartyAuthError > 0 {
            thirdPartyAuthError -= 1
            return .thirdPartyAuthError
        }
        return nil
    }

    /// Whether the next token request is refused with 503.
    mutating func takeTokenEndpointFault() -> Bool {
        guard tokenEndpointUnavailable > 0 else { return false }
        tokenEndpointUnavailable -= 1
        return true
    }
}
