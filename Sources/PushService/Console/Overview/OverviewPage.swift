import ProviderDriver

/// The overview as the template shows it: every figure formatted, each with the id the browser
/// suite reads it by.
struct OverviewPage: Sendable {
    struct Figure: Sendable {
        var id: String
        var value: String
        var label: String
    }

    struct Credential: Sendable {
        var provider: String
        var kind: String
        var daysLeft: String
        var tone: String
    }

    var chrome: ConsoleChrome
    var app: String
    var window: String
    var figures: [Figure]
    var credentials: [Credential]
    var showsRelay: Bool
    var relayFigures: [Figure]

    init(chrome: ConsoleChrome, app: AppConfiguration, figures f: OverviewFigures, sinceMs: Int64?, nowMs: Int64, showsRelay: Bool) {
        self.chrome = chrome
        self.app = app.appID
        window = sinceMs.map { "counts since \(ConsoleFormat.time($0))" } ?? "counts since the relay started"
        let share = f.acknowledgedShare.map { ConsoleFormat.percent($0) } ?? "—"
        figures = [
            Figure(id: "queue-depth", value: ConsoleFormat.number(f.queueDepth), label: "Unsent pushes (queue depth)"),
            Figure(id: "sent", value: ConsoleFormat.number(f.sent), label: "Sent, last hour"),
            Figure(id: "failed", value: ConsoleFormat.number(f.failed), label: "Failed or expired, last hour"),
            Figure(id: "dead-tokens", value: ConsoleFormat.number(f.deadTokens), label: "Dead device tokens, last hour"),
            Figure(id: "acknowledged", value: ConsoleFormat.number(f.acknowledged), label: "Acknowledged by devices, last hour"),
            Figure(id: "acknowledged-share", value: share, label: "Acknowledged share of sent"),
            Figure(id: "clicked", value: ConsoleFormat.number(f.clicked), label: "Opened, last hour"),
            Figure(id: "test-pushes", value: ConsoleFormat.number(f.testPushes), label: "Test pushes, last hour (not in the above)"),
        ]
        credentials = Self.credentials(app, certificateNotAfter: f.certificateNotAfter, nowMs: nowMs)
        self.showsRelay = showsRelay
        let relay = f.relay
        relayFigures =
            showsRelay
            ? [
                Figure(id: "relay-queue-depth", value: ConsoleFormat.number(relay.queueDepth), label: "Unsent pushes, all apps"),
                Figure(
                    id: "oldest-unsent", value: relay.oldestUnsentSeconds.map(ConsoleFormat.seconds) ?? "—",
                    label: "Oldest unsent push waiting"),
                Figure(id: "webhooks-refused", value: ConsoleFormat.number(relay.webhooksRefused), label: "Webhooks refused, last hour"),
                Figure(id: "fleet-nodes", value: ConsoleFormat.number(relay.fleetNodes), label: "Relays in the fleet (PostgreSQL)"),
                Figure(id: "claims-held", value: ConsoleFormat.number(relay.claimsHeld), label: "Pushes this relay holds leased"),
            ] : []
    }

    /// Each configured provider's credential and how long it lasts. Only a certificate has an
    /// end the relay can read (a client certificate); the others say what ends them
    /// (`CredentialDescription`).
    static func credentials(_ app: AppConfiguration, certificateNotAfter: Double?, nowMs: Int64) -> [Credential] {
        app.providers.all.map { settings in
            let credential = settings.credential
            let provider = ProviderCatalog.installed.displayName(of: settings.provider)
            switch credential.lifetime {
            case .until(let text):
                return Credential(provider: provider, kind: credential.kind, daysLeft: text, tone: "good")
            case .certificate:
                let days = certificateNotAfter.map { ($0 - Double(nowMs) / 1000) / 86_400 }
                let tone = days.map { $0 < 3 ? "bad" : ($0 < 14 ? "warn" : "good") } ?? "muted"
                return Credential(
                    provider: provider, kind: credential.kind, daysLeft: days.map { String(Int($0.rounded(.down))) } ?? "—", tone: tone)
            }
        }
    }
}
