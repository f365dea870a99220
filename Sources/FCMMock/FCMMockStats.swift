/// The mock's counters (admin `GET /stats`; snake_case, as Google's own JSON).
public struct FCMMockStats: Sendable, Codable, Hashable {
    public var connectionsAccepted = 0
    public var connectionsOpen = 0
    /// Connections closed by a `drop_connections` fault.
    public var connectionsDropped = 0
    /// Connections silenced by the `silent_connections` fault.
    public var connectionsSilenced = 0
    /// `messages:send` requests received, answered or not.
    public var sendRequests = 0
    public var messagesAccepted = 0
    /// Accepted with `validate_only` (answered, not recorded).
    public var messagesValidated = 0
    public var tokensIssued = 0
    /// Token requests refused (bad assertion, wrong grant, a fault).
    public var tokenRequestsRefused = 0
    /// Sends answered 401 for a missing, unknown, expired or revoked access token.
    public var sendsUnauthenticated = 0
    /// Every answer by HTTP status, token endpoint included.
    public var responsesByStatus: [String: Int] = [:]

    enum CodingKeys: String, CodingKey {
        case connectionsAccepted = "connections_accepted"
        case connectionsOpen = "connections_open"
        case connectionsDropped = "connections_dropped"
        case connectionsSilenced = "connections_silenced"
        case sendRequests = "send_requests"
        case messagesAccepted = "messages_accepted"
        case messagesValidated = "messages_validated"
        case tokensIssued = "tokens_issued"
        case tokenRequestsRefused = "token_requests_refused"
        case sendsUnauthenticated = "sends_unauthenticated"
        case responsesByStatus = "responses_by_status"
    }
}
