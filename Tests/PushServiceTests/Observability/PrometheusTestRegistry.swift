import Prometheus
@testable import PushService
@testable import PushEngine

/// A registry of a test's own and its text as `/metrics` renders it; `factory` feeds it through
/// swift-metrics, as `serve` bootstraps it.
struct PrometheusTestRegistry {
    let registry = PrometheusCollectorRegistry()

    var factory: PrometheusMetricsFactory {
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.durationHistogramBuckets = DeliveryMetrics.durationBuckets
        return factory
    }

    var text: String {
        var bytes: [UInt8] = []
        registry.emit(into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
