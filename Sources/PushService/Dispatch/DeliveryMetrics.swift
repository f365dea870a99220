import Metrics

/// The dispatcher's and webhook's metric names in one place (the Prometheus backend is
/// bootstrapped by the runtime; without one these are no-ops).
enum DeliveryMetrics {
    static func webhookEvent(category: String, result: String) {
        Counter(label: "pushrelay_webhook_events_total", dimensions: [("category", category), ("result", result)]).increment()
    }

    static func decisions(_ counts: [String: Int]) {
        for (reason, count) in counts {
            Counter(label: "pushrelay_decisions_total", dimensions: [("reason", reason)]).increment(by: count)
        }
    }

    static func push(app: String, status: String, reason: String) {
        Counter(label: "pushrelay_pushes_total", dimensions: [("app", app), ("status", status), ("reason", reason)]).increment()
    }

    static func apnsLatency(_ duration: Duration) {
        Metrics.Timer(label: "pushrelay_apns_latency_seconds").recordNanoseconds(duration.milliseconds * 1_000_000)
    }

    static func queueDepth(_ depth: Int) {
        Gauge(label: "pushrelay_queue_depth").record(depth)
    }

    static func retry(app: String) {
        Counter(label: "pushrelay_retries_total", dimensions: [("app", app)]).increment()
    }

    static func tokenRemoved(app: String, reason: String) {
        Counter(label: "pushrelay_token_removals_total", dimensions: [("app", app), ("reason", reason)]).increment()
    }
}
