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
