import Prometheus
import PushStore
import StoreContract
import Synchronization

/// The webhook's recipient cache in `/metrics`, read at scrape time:
/// `pushrelay_recipient_cache_lookups_total{result="hit"|"miss"}` (members served from memory, or
/// read from the database) and the users and bytes it holds. The store counts; this adds what
/// was counted since the last scrape to Prometheus' counters.
final class RecipientCacheMetrics: Sendable {
    private let reported = Mutex<(hits: UInt64, misses: UInt64)>((0, 0))

    private static func descriptor(_ name: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: name, unitName: "", helpText: help)
    }

    func update(_ registry: PrometheusCollectorRegistry, from statistics: RecipientCacheStatistics) {
        // Two scrapes may race: each adds only what the other has not (never a negative step).
        let (hits, misses) = reported.withLock { reported in
            let hits = statistics.hits > reported.hits ? statistics.hits - reported.hits : 0
            let misses = statistics.misses > reported.misses ? statistics.misses - reported.misses : 0
            reported = (max(reported.hits, statistics.hits), max(reported.misses, statistics.misses))
            return (hits, misses)
        }
        let lookups = Self.descriptor(
            "pushrelay_recipient_cache_lookups_total",
            "Webhook recipients served from the recipient cache (hit) or read from the database (miss)")
        registry.makeCounter(descriptor: lookups, labels: [("result", "hit")]).increment(by: Int64(clamping: hits))
        registry.makeCounter(descriptor: lookups, labels: [("result", "miss")]).increment(by: Int64(clamping: misses))
        registry.makeGauge(descriptor: Self.descriptor("pushrelay_recipient_cache_users", "Users the recipient cache holds"))
            .set(Int64(statistics.users))
        registry.makeGauge(
            descriptor: Self.descriptor("pushrelay_recipient_cache_bytes", "About how many bytes the recipient cache's users take")
        )
        .set(Int64(statistics.bytes))
    }
}
