import Foundation
import HTTP2Transport
import Prometheus

/// The gauges read from the clients at scrape time: each app's certificate expiry and its APNs
/// and FCM pool state (FCM's as `pushrelay_fcm_*`). (Counters and histograms of the pipeline go
/// through swift-metrics.)
public enum RelayGauges {
    public static let certificateExpiry = "pushrelay_certificate_expiry_seconds"

    private static func descriptor(_ name: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: name, unitName: "", helpText: help)
    }

    /// Sets every gauge from `clients` into `registry`.
    public static func update(_ registry: PrometheusCollectorRegistry, from clients: PushClients) {
        for app in clients.snapshot {
            let labels = [("app", app.app.appID)]
            if let notAfter = app.certificateNotAfter {
                registry.makeGauge(
                    descriptor: descriptor(certificateExpiry, "When the app's APNs client certificate expires (Unix seconds)"),
                    labels: labels
                )
                .set(notAfter.timeIntervalSince1970)
            }
            if let statistics = app.target?.apns?.statistics {
                set(statistics, provider: "APNs", prefix: "pushrelay_apns_", labels, registry)
            }
            if let statistics = app.target?.fcm?.statistics { set(statistics, provider: "FCM", prefix: "pushrelay_fcm_", labels, registry) }
        }
    }

    private static func set(
        _ statistics: TransportStatistics, provider: String, prefix: String, _ labels: [(String, String)],
        _ registry: PrometheusCollectorRegistry
    ) {
        func gauge(_ name: String, _ help: String, _ value: Int) {
            registry.makeGauge(descriptor: descriptor(prefix + name, "\(provider) " + help), labels: labels).set(Double(value))
        }
        gauge("connections", "connections of the app's pool (connecting, open or draining)", statistics.connections)
        gauge("ready_connections", "connections that completed the HTTP/2 handshake", statistics.readyConnections)
        gauge("streams_in_flight", "requests in flight", statistics.streamsInFlight)
        gauge("queued_requests", "requests waiting for a stream", statistics.queued)
    }
}
