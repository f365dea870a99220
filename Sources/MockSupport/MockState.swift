/// What a request-level mock (fcm-mock, hms-mock) keeps under its lock (`SharedMockState`): what
/// every such mock keeps alike (counters, open connections, records, issued access tokens) and its
/// own (armed faults, marked device tokens, serials).
package protocol MockState: Sendable {
    associatedtype Stats: MockStats
    associatedtype Record: Sendable & Encodable
    /// What the mock's API throws.
    associatedtype Failure: MockServerError

    init()
    var stats: Stats { get set }
    var connections: OpenConnections { get set }
    var records: Recordings<Record> { get set }
    var accessTokens: AccessTokenLedger { get set }

    /// Forgets what `reset` forgets beyond records and counters: the armed faults and marked
    /// device tokens (issued access tokens stay valid).
    mutating func forgetFaultsAndMarks()
}
