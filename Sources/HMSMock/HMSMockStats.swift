import MockSupport

/// The mock's counters (admin `GET /stats`; snake_case, as the other mocks' stats): those every
/// mock keeps (`MockCounters`, read as the stats' own: `stats.tokensIssued`; here
/// `sendsUnauthenticated` counts 80200001, another app's token included) and hms-mock's own.
public struct HMSMockStats: MockStats {
    public var counters = MockCounters()
    /// Every request (token endpoint included) by what it came on: `h2` or `http/1.1`.
    public var requestsByHTTPVersion: [String: Int] = [:]
    /// Sends answered 80200003: an access token past its lifetime or expired by the admin.
    public var sendsWithExpiredToken = 0
    /// `messages:send` answers by Huawei result code (flow control, which has none, is not counted here).
    public var responsesByCode: [String: Int] = [:]

    public init() {}

    enum CodingKeys: String, CodingKey {
        case requestsByHTTPVersion = "requests_by_http_version"
        case sendsWithExpiredToken = "sends_with_expired_token"
        case responsesByCode = "responses_by_code"
    }

    public init(from decoder: any Decoder) throws {
        counters = try MockCounters(from: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        requestsByHTTPVersion = try container.decode([String: Int].self, forKey: .requestsByHTTPVersion)
        sendsWithExpiredToken = try container.decode(Int.self, forKey: .sendsWithExpiredToken)
        responsesByCode = try container.decode([String: Int].self, forKey: .responsesByCode)
    }

    /// One flat object: the shared counters' keys, then this mock's.
    public func encode(to encoder: any Encoder) throws {
        try counters.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(requestsByHTTPVersion, forKey: .requestsByHTTPVersion)
        try container.encode(sendsWithExpiredToken, forKey: .sendsWithExpiredToken)
        try container.encode(responsesByCode, forKey: .responsesByCode)
    }
}
