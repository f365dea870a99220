import Prometheus
import PushEngine

/// The gauges read from the dispatcher at scrape time, from what it keeps anyway:
/// `pushrelay_app_queue_depth{app}` (each app's unsent pushes, from the backlog ledger) and, on
/// a shared store, `pushrelay_fleet_nodes` (relays connected to the database, as the fleet
/// upkeep last read it) and `pushrelay_claims_held` (pushes this relay holds claimed).
///
/// The oldest unsent push's age stays global (`pushrelay_oldest_unsent_push_age_seconds`): the
/// ledger counts unsent pushes by the second they were accepted for all apps at once, and a
/// count per app and second would add a dictionary per app to every accepted and every
/// finished push, under the lock the webhook and the dispatcher share.
enum DispatcherGauges {
    static let appQueueDepth = "pushrelay_app_queue_depth"
    static let fleetNodes = "pushrelay_fleet_nodes"
    static let claimsHeld = "pushrelay_claims_held"
    static let providerSilent = "pushrelay_provider_silent_seconds"

    private static func descriptor(_ name: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: name, unitName: "", helpText: help)
    }

    static func update(_ registry: PrometheusCollectorRegistry, from dispatcher: Dispatcher) {
        let depth = descriptor(appQueueDepth, "Unsent pushes of the app: waiting, handed to the dispatcher, on the wire, awaiting a retry")
        for (app, unsent) in dispatcher.backlog.unsentByApp {
            registry.makeGauge(descriptor: depth, labels: [("app", app)]).set(Int64(unsent))
        }
        let silent = descriptor(
            providerSilent, "Seconds the app's provider has answered nothing while pushes waited on it (0 while it answers)")
        for (key, milliseconds) in dispatcher.silence.silentMs(nowMs: dispatcher.clock()) {
            registry.makeGauge(descriptor: silent, labels: [("app", key.app), ("provider", key.provider.rawValue)])
                .set(Double(milliseconds) / 1000)
        }
        if let nodes = dispatcher.connectedNodes {
            registry.makeGauge(descriptor: descriptor(fleetNodes, "Relays (node ids) connected to the shared PostgreSQL database"))
                .set(Int64(nodes))
        }
        if let held = dispatcher.claimsHeld {
            registry.makeGauge(descriptor: descriptor(claimsHeld, "Pushes this relay holds claimed on the shared database and renews"))
                .set(Int64(held))
        }
    }
}
