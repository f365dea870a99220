/// Per-credential request rates, decided without I/O: the generic cell rate algorithm (a token
/// bucket in one number per key). A key may make `burst` requests at once and `perSecond` a
/// second sustained; beyond, it is refused until its bucket has room again.
///
/// Bounded: at most `maximumKeys` keys. A key whose bucket is full again holds nothing worth
/// keeping (it behaves as a key never seen), so a full table first drops those; a table full of
/// keys all being limited right now lets a new key through untracked rather than grow.
struct RateLimitTable<Key: Hashable> {
    enum Decision: Equatable {
        case allow
        /// Try again after this many seconds (at least 1: `Retry-After` is whole seconds).
        case refuse(retryAfterSeconds: Int)
    }

    let maximumKeys: Int
    /// When each key's next request would find the bucket as it should be (µs): the
    /// "theoretical arrival time".
    private var arrival: [Key: Int64] = [:]

    init(maximumKeys: Int) {
        self.maximumKeys = max(1, maximumKeys)
    }

    var count: Int { arrival.count }

    /// A request of `key` at `nowMicros`, allowed `perSecond` sustained and `burst` at once.
    /// `perSecond` 0 means no limit.
    mutating func admit(_ key: Key, nowMicros: Int64, perSecond: Int, burst: Int, cost: Int = 1) -> Decision {
        guard perSecond > 0 else { return .allow }
        return admit(key, nowMicros: nowMicros, intervalMicros: 1_000_000 / Int64(perSecond), burst: burst, cost: cost)
    }

    /// A request of `key` at `nowMicros` costing `cost` units, allowed one unit per
    /// `intervalMicros` sustained and `burst` units at once (rates slower than one a second: test
    /// pushes per minute). A request costing more than the burst waits for a full bucket.
    mutating func admit(_ key: Key, nowMicros: Int64, intervalMicros interval: Int64, burst: Int, cost: Int = 1) -> Decision {
        guard interval > 0 else { return .allow }
        let units = Int64(max(1, cost))
        let tolerance = interval * max(0, Int64(max(1, burst)) - units)
        let previous = arrival[key] ?? nowMicros
        let start = max(previous, nowMicros)
        if start - nowMicros > tolerance {
            let waitMicros = start - tolerance - nowMicros
            return .refuse(retryAfterSeconds: max(1, Int((waitMicros + 999_999) / 1_000_000)))
        }
        if arrival[key] == nil, arrival.count >= maximumKeys {
            arrival = arrival.filter { $0.value > nowMicros }
            guard arrival.count < maximumKeys else { return .allow }
        }
        arrival[key] = start + interval * units
        return .allow
    }
}
