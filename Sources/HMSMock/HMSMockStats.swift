/// The mock's counters (admin `GET /stats`; snake_case, as the other mocks' stats).
public struct HMSMockStats: Sendable, Codable, Hashable {
    public var connectionsAccepted = 0
    public var connectionsOpen = 0
    /// Every request (token endpoint included) by what it came on: `h2` or `http/1.1`.
    public var requestsByHTTPVersion: [String: Int] = [:]
    /// `messages:send` requests received, answered or not.
    public var sendRequests = 0
    /// Device tokens that took a message (a request to three good tokens counts three).
    public var messagesAccepted = 0
    /// Requests accepted with `validate_only` (answered, not recorded).
    public var messagesValidated = 0
    public var tokensIssued = 0
    /// Token requests refused (bad credentials, a fault).
    public var tokenRequestsRefused = 0
    /// Sends answered 80200001: no, an unknown or another app's access token.
    public var sendsUnauthenticated = 0
    /// Sends answered 80200003: an access token past its lifetime or expired by the admin.
    public var sendsWithExpiredToken = 0
    /// `messages:send` answers by Huawei result code (flow control, which has none, is not counted here).
    public var responsesByCode: [String: Int] = [:]
    /// Every answer by HTTP status, token endpoint included.
    public var responsesByStatus: [String: Int] = [:]
    /// Connections silenced by the `silent_connections` fault.
    public var connectionsSilenced = 0

    enum CodingKeys: String, CodingKey {
        case connectionsAccepted = "connections_accepted"
        case connectionsOpen = "connections_open"
        case requestsByHTTPVersion = "requests_by_http_version"
        case sendRequests = "send_requests"
        case messagesAccepted = "messages_accepted"
        case messagesValidated = "messages_validated"
        case tokensIssued = "tokens_issued"
        case tokenRequestsRefused = "token_requests_refused"
        case sendsUnauthenticated = "sends_unauthenticated"
        case sendsWithExpiredToken = "sends_with_expired_token"
        case responsesByCode = "responses_by_code"
        case responsesByStatus = "responses_by_status"
        case connectionsSilenced = "connections_silenced"
    }
}
