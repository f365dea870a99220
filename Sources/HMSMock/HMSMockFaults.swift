import MockSupport

/// Faults armed through `POST /faults` (or `HMSMockServer.arm`).
///
/// ```json
/// {"invalid_tokens": ["tok1"], "flow_control": {"count": 3, "retry_after": 1}, "internal_error": 2,
///  "delay_ms": 250, "refuse_credentials": 1, "token_endpoint_unavailable": 1, "silent_connections": 1}
/// ```
///
/// Every field is optional. `invalid_tokens` marks tokens for good (80300007 alone, or among the
/// `illegal_tokens` of an 80100000, until `reset`); the counts add to what is armed and are spent one
/// request at a time: `flow_control` answers that many `messages:send` 503 (with `Retry-After` when
/// `retry_after` is set), `internal_error` 500 / 81000001, `refuse_credentials` that many token requests
/// 400 / 1101 `invalid client_secret`, `token_endpoint_unavailable` token requests 503. `delay_ms` holds
/// every answer (token endpoint included) that long until set to 0 or cleared. `silent_connections`
/// silences the connection of that many next requests: it stops reading and sending (no answer, no
/// PING ACK) and stays open until the client gives up on it (`ConnectionSilencer`).
public struct HMSMockFaults: Sendable, Codable, Hashable {
    public var invalidTokens: [String]?
    public var flowControl: FlowControl?
    public var internalError: Int?
    public var delayMilliseconds: Int?
    public var refuseCredentials: Int?
    public var tokenEndpointUnavailable: Int?
    public var silentConnections: Int?

    /// That many `messages:send` answered 503, with `Retry-After` when `retryAfter` is set.
    public typealias FlowControl = RetryAfterFault

    public init(
        invalidTokens: [String]? = nil, flowControl: FlowControl? = nil, internalError: Int? = nil, delayMilliseconds: Int? = nil,
        refuseCredentials: Int? = nil, tokenEndpointUnavailable: Int? = nil, silentConnections: Int? = nil
    ) {
        self.invalidTokens = invalidTokens
        self.flowControl = flowControl
        self.internalError = internalError
        self.delayMilliseconds = delayMilliseconds
        self.refuseCredentials = refuseCredentials
        self.tokenEndpointUnavailable = tokenEndpointUnavailable
        self.silentConnections = silentConnections
    }

    enum CodingKeys: String, CodingKey {
        case invalidTokens = "invalid_tokens"
        case flowControl = "flow_control"
        case internalError = "internal_error"
        case delayMilliseconds = "delay_ms"
        case refuseCredentials = "refuse_credentials"
        case tokenEndpointUnavailable = "token_endpoint_unavailable"
        case silentConnections = "silent_connections"
    }
}
