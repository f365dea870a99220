/// The overview's numbers for one app, read from the relay's own metrics (`MetricSamples` of
/// what `/metrics` answers): gauges as they are now, counters over the window since `baseline`
/// (nil: since the relay started, when every counter was zero). A series the relay does not
/// export is nil, shown as "—".
struct OverviewFigures: Sendable, Equatable {
    static let pushes = "pushrelay_pushes_total"
    static let acknowledgements = "pushrelay_push_acknowledgements_total"
    static let clicks = "pushrelay_push_clicks_total"
    static let testPushes = "pushrelay_test_pushes_total"
    static let webhookEvents = "pushrelay_webhook_events_total"
    static let appQueueDepth = "pushrelay_app_queue_depth"
    static let queueDepth = "pushrelay_queue_depth"
    static let oldestUnsent = "pushrelay_oldest_unsent_push_age_seconds"
    static let fleetNodes = "pushrelay_fleet_nodes"
    static let claimsHeld = "pushrelay_claims_held"
    /// Webhook results that are not a refusal.
    static let webhookAccepted: Set<String> = ["accepted", "duplicate", "ignored"]

    /// Pushes the provider accepted, failed for good (failed or expired), and refused as dead tokens.
    var sent: Double
    var failed: Double
    var deadTokens: Double
    var acknowledged: Double
    var clicked: Double
    /// Test pushes sent through this relay (REST or the console), whatever their answer.
    var testPushes: Double
    /// The app's unsent pushes, where the relay exports them per app.
    var queueDepth: Double?
    /// When the app's client certificate expires (Unix seconds).
    var certificateNotAfter: Double?
    /// Figures of the whole relay, every app's together.
    var relay: RelayFigures

    struct RelayFigures: Sendable, Equatable {
        var queueDepth: Double?
        var oldestUnsentSeconds: Double?
        var webhooksRefused: Double
        var fleetNodes: Double?
        var claimsHeld: Double?
    }

    /// Acknowledged over sent, in the window; nil when nothing was sent.
    var acknowledgedShare: Double? { sent > 0 ? min(1, acknowledged / sent) : nil }

    init(app: String, now: MetricSamples, baseline: MetricSamples?) {
        func delta(_ name: String, _ labels: [String: String], where filter: ([String: String]) -> Bool = { _ in true }) -> Double {
            max(0, (now.sum(name, labels, where: filter) ?? 0) - (baseline?.sum(name, labels, where: filter) ?? 0))
        }
        let app = ["app": app]
        sent = delta(Self.pushes, app.merging(["status": "sent"]) { $1 })
        failed = delta(Self.pushes, app) { ["failed", "expired"].contains($0["status"] ?? "") }
        deadTokens = delta(Self.pushes, app.merging(["status": "token_invalid"]) { $1 })
        acknowledged = delta(Self.acknowledgements, app)
        clicked = delta(Self.clicks, app)
        testPushes = delta(Self.testPushes, app)
        queueDepth = now.sum(Self.appQueueDepth, app)
        certificateNotAfter = now.sum(RelayGauges.certificateExpiry, app)
        relay = RelayFigures(
            queueDepth: now.sum(Self.queueDepth), oldestUnsentSeconds: now.sum(Self.oldestUnsent),
            webhooksRefused: delta(Self.webhookEvents, [:]) { !Self.webhookAccepted.contains($0["result"] ?? "") },
            fleetNodes: now.sum(Self.fleetNodes), claimsHeld: now.sum(Self.claimsHeld))
    }
}
