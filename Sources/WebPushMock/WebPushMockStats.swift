import MockSupport

/// The mock's counters (admin `GET /stats`): those every mock keeps and its own.
public struct WebPushMockStats: MockStats {
    public var counters = MockCounters()
    /// Pushes refused: the VAPID header did not verify (401), or the body did not decrypt (400).
    public var vapidRefused = 0
    public var undecryptable = 0

    public init() {}

    enum CodingKeys: String, CodingKey {
        case vapidRefused = "vapid_refused"
        case undecryptable
    }

    public init(from decoder: any Decoder) throws {
        counters = try MockCounters(from: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        vapidRefused = try container.decode(Int.self, forKey: .vapidRefused)
        undecryptable = try container.decode(Int.self, forKey: .undecryptable)
    }

    public func encode(to encoder: any Encoder) throws {
        try counters.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(vapidRefused, forKey: .vapidRefused)
        try container.encode(undecryptable, forKey: .undecryptable)
    }
}
