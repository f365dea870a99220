/// Readings of the relay's counters over the last `span`, decided without I/O: what the
/// overview's "last hour" figures subtract. A reading is kept while it is younger than `span`,
/// and so is the newest one older than it (the baseline). Before the relay has run for `span`
/// there is no baseline: counters start at zero with the process, so the figures are then
/// "since the relay started".
struct CounterWindow: Sendable {
    struct Reading: Sendable, Equatable {
        /// Monotonic microseconds.
        var atMicros: Int64
        /// Unix milliseconds, to say when the window starts.
        var wallMs: Int64
        var samples: MetricSamples
    }

    let spanMicros: Int64
    private(set) var readings: [Reading] = []

    init(span: Duration) {
        spanMicros = span.components.seconds * 1_000_000 + span.components.attoseconds / 1_000_000_000_000
    }

    mutating func record(_ reading: Reading) {
        readings.append(reading)
        let cutoff = reading.atMicros - spanMicros
        // Keep the newest reading at or before the cutoff (the baseline) and everything after it.
        if let baseline = readings.lastIndex(where: { $0.atMicros <= cutoff }) {
            readings.removeFirst(baseline)
        }
    }

    /// The reading to subtract at `nowMicros`: the newest at least `span` old; nil before there is one.
    func baseline(nowMicros: Int64) -> Reading? {
        readings.last { $0.atMicros <= nowMicros - spanMicros }
    }
}
