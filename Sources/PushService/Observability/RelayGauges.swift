import Foundation
import ProviderDriver
import Prometheus
import PushCore
import PushSending

/// The gauges read from the clients at scrape time: each app's certificate expiry and each of its
/// senders' pool state (`pushrelay_apns_*`, `pushrelay_fcm_*`, `pushrelay_hms_*`). (Counters and
/// histograms of the pipeline go through swift-metrics.)
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
                    descriptor: descriptor(certificateExpiry, "When the app's client certificate expires (Unix seconds)"),
                    labels: labels
                )
                .set(notAfter.timeIntervalSince1970)
            }
            for (provider, sender) in app.target?.senders ?? [:] {
                guard let statistics = sender.statistics else { continue }
                set(
                    statistics, provider: ProviderCatalog.installed.displayName(of: provider), prefix: "pushrelay_\(provider.rawValue)_",
                    labels, registry)
            }
        }
    }

    private static func set(
        _ statistics: PushSenderStatistics, provider: String, prefix: String, _ labels: [(String, String)],
        _ registry: PrometheusCollectorRegistry
    ) {
        func gauge(_ name: String, _ help: String, _ value: Int) {
            registry.makeGauge(descriptor: descriptor(prefix + name, "\(provider) " + help), labels: labels).set(Double(value))
        }
        if statistics.countsConnections {
            gauge("connections", "connections of the app's pool (connecting, open or draining)", statistics.connections)
            gauge("ready_connections", "connections that completed the HTTP/2 handshake", statistics.readyConnections)
            gauge("queued_requests", "requests waiting for a stream", statistics.queued)
        }
        gauge("streams_in_flight", "requests in flight", statistics.inFlight)
    }
}
