/// The counters fcm-mock and hms-mock keep alike, as their stats show them (admin `GET /stats`,
/// snake_case). Each mock's stats hold these and add their own (`MockStats`).
public struct MockCounters: Sendable, Codable, Hashable {
    public var connectionsAccepted = 0
    /// A live gauge: `reset` keeps it.
    public var connectionsOpen = 0
    /// Connections silenced by the `silent_connections` fault.
    public var connectionsSilenced = 0
    /// `messages:send` requests received, answered or not.
    public var sendRequests = 0
    /// Messages accepted for a device token (a request to three good tokens counts three).
    public var messagesAccepted = 0
    /// Requests accepted with `validate_only` (answered, not recorded).
    public var messagesValidated = 0
    public var tokensIssued = 0
    /// Token requests refused (bad credentials or assertion, a fault).
    public var tokenRequestsRefused = 0
    /// Sends refused for a missing or unknown access token (each mock's stats say what else).
    public var sendsUnauthenticated = 0
    /// Every answer by HTTP status, token endpoint included.
    public var responsesByStatus: [String: Int] = [:]

    public init() {}

    /// Counts one answer written with `status`.
    package mutating func answered(status: Int) {
        responsesByStatus[String(status), default: 0] += 1
    }

    enum CodingKeys: String, CodingKey {
        case connectionsAccepted = "connections_accepted"
        case connectionsOpen = "connections_open"
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
