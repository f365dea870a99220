import Foundation
import Prometheus

/// The gauges read from the APNs clients at scrape time: each app's certificate expiry and APNs pool
/// state. (Counters and histograms of the pipeline go through swift-metrics.)
public enum RelayGauges {
    public static let certificateExpiry = "pushrelay_certificate_expiry_seconds"
    public static let connections = "pushrelay_apns_connections"
    public static let readyConnections = "pushrelay_apns_ready_connections"
    public static let streamsInFlight = "pushrelay_apns_streams_in_flight"
    public static let queuedRequests = "pushrelay_apns_queued_requests"

    private static func descriptor(_ name: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: name, unitName: "", helpText: help)
    }

    /// Sets every gauge from `clients` into `registry`.
    public static func update(_ registry: PrometheusCollectorRegistry, from clients: APNsClients) {
        for app in clients.snapshot {
            let labels = [("app", app.app.appID)]
            if let notAfter = app.certificateNotAfter {
                registry.makeGauge(
                    descriptor: descriptor(certificateExpiry, "When the app's APNs client certificate expires (Unix seconds)"),
                    labels: labels
                )
                .set(notAfter.timeIntervalSince1970)
            }
            guard let client = app.target?.client else { continue }
            let statistics = client.statistics
            registry.makeGauge(
                descriptor: descriptor(connections, "APNs connections of the app's pool (connecting, open or draining)"), labels: labels
            )
            .set(Double(statistics.connections))
            registry.makeGauge(
                descriptor: descriptor(readyConnections, "APNs connections that completed the HTTP/2 handshake"), labels: labels
            )
            .set(Double(statistics.readyConnections))
            registry.makeGauge(descriptor: descriptor(streamsInFlight, "APNs requests in flight"), labels: labels)
                .set(Double(statistics.streamsInFlight))
            registry.makeGauge(descriptor: descriptor(queuedRequests, "APNs requests waiting for a stream"), labels: labels)
                .set(Double(statistics.queued))
        }
    }
}
