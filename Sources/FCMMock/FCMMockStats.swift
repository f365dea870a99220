import MockSupport

/// The mock's counters (admin `GET /stats`; snake_case, as Google's own JSON): those every mock
/// keeps (`MockCounters`, read as the stats' own: `stats.tokensIssued`) and fcm-mock's own.
public struct FCMMockStats: MockStats {
    public var counters = MockCounters()
    /// Connections closed by a `drop_connections` fault.
    public var connectionsDropped = 0

    public init() {}

    enum CodingKeys: String, CodingKey {
        case connectionsDropped = "connections_dropped"
    }

    public init(from decoder: any Decoder) throws {
        counters = try MockCounters(from: decoder)
        connectionsDropped = try decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .connectionsDropped)
    }

    /// One flat object: the shared counters' keys, then this mock's.
    public func encode(to encoder: any Encoder) throws {
        try counters.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(connectionsDropped, forKey: .connectionsDropped)
    }
}
