/// A mock's stats: the counters every such mock keeps (`counters`, read and written as if they
/// were the stats' own: `stats.tokensIssued`) and its own. As JSON, one flat object: a mock's
/// `Codable` writes `counters` to its encoder, then its own keys beside them.
@dynamicMemberLookup
public protocol MockStats: Sendable, Codable, Hashable {
    init()
    var counters: MockCounters { get set }
}

extension MockStats {
    public subscript<Value>(dynamicMember path: WritableKeyPath<MockCounters, Value>) -> Value {
        get { counters[keyPath: path] }
        set { counters[keyPath: path] = newValue }
    }

    /// What `reset` leaves: every counter zeroed but the live gauge `connectionsOpen`.
    package func afterReset() -> Self {
        var fresh = Self()
        fresh.counters.connectionsOpen = counters.connectionsOpen
        return fresh
    }
}
