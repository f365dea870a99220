import PushCore
import PushSending
import PushStore
import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Prometheus

/// `GET /health` (liveness), `GET /ready` (database writable; each app's APNs pool) and
/// `GET /metrics` (Prometheus text, optionally behind a bearer token). Unauthenticated by
/// `Api-Token`: they are for the operator's probes, not for apps, so none of them opens a
/// database connection or takes a lock others need (`/ready` answers from `DatabaseReadiness`).
/// `/ready` tells anyone only whether the relay is ready; what is wrong, the app ids and their
/// certificates go only to a request with the metrics token (`Authorization: Bearer`).
public struct ObservabilityRoutes: Sendable {
    public let database: DatabaseReadiness
    public let clients: PushClients?
    public let registry: PrometheusCollectorRegistry
    public let metricsToken: Secret?
    /// The webhook's recipient cache, read at scrape time.
    public let recipientCache: (@Sendable () -> RecipientCacheStatistics)?
    /// Its backlog per app and the fleet's state, read at scrape time (`DispatcherGauges`).
    public let dispatcher: Dispatcher?
    private let recipientCacheMetrics = RecipientCacheMetrics()
    private let processMetrics = ProcessMetrics()

    public init(
        database: DatabaseReadiness, clients: PushClients?, registry: PrometheusCollectorRegistry, metricsToken: Secret?,
        recipientCache: (@Sendable () -> RecipientCacheStatistics)? = nil, dispatcher: Dispatcher? = nil
    ) {
        self.database = database
        self.clients = clients
        self.registry = registry
        self.metricsToken = metricsToken
        self.recipientCache = recipientCache
        self.dispatcher = dispatcher
    }

    struct AppState: Codable, Equatable {
        var app_id: String
        var apns: String
        var connections: Int?
        var ready_connections: Int?
        var streams_in_flight: Int?
        var queued: Int?
        var certificate_not_after: String?
        /// The FCM pool, for apps with `fcm` settings.
        var fcm: String?
        /// The HMS client, for apps with `hms` settings.
        var hms: String?
        /// Providers that have answered nothing for 10 s or more while pushes waited on them, and
        /// for how many seconds (absent when every provider answers). Not a reason to be unready:
        /// accepted events are still committed and wait for the provider.
        var silent_seconds: [String: Int]?
    }

    struct Readiness: Codable, Equatable {
        var status: String
        var database: String
        var apps: [AppState]
    }

    /// What `/ready` tells a request without the metrics token.
    struct ReadinessStatus: Codable, Equatable {
        var status: String
    }

    public func register(on router: Router<RelayRequestContext>) {
        router.get("health") { _, _ in
            Self.json(.ok, #"{"status":"ok"}"#)
        }
        router.get("ready") { request, _ in
            let detailed = metricsToken.map { Self.authorized(request.headers[.authorization], token: $0) } ?? false
            let body: Data?
            let ready: Bool
            if detailed {
                let state = await readiness()
                ready = state.status == Self.ready
                body = try? RelayRequestContext.jsonEncoder.encode(state)
            } else {
                ready = await database.current() == nil
                body = try? RelayRequestContext.jsonEncoder.encode(ReadinessStatus(status: ready ? Self.ready : Self.notReady))
            }
            return Self.json(ready ? .ok : .serviceUnavailable, body.map { String(decoding: $0, as: UTF8.self) } ?? "{}")
        }
        router.get("metrics") { request, _ in
            if let metricsToken, !Self.authorized(request.headers[.authorization], token: metricsToken) {
                return Response(
                    status: .unauthorized, headers: [.wwwAuthenticate: "Bearer", .contentType: "text/plain; charset=utf-8"],
                    body: ResponseBody(byteBuffer: ByteBuffer(string: "metrics need Authorization: Bearer <metrics.token>\n")))
            }
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: await exposition())))
        }
    }

    /// What `/metrics` answers: the gauges read at scrape time set, then every metric in
    /// Prometheus' text format. The console's overview reads its numbers from here too.
    func exposition() async -> [UInt8] {
        await updateScrapeTimeMetrics()
        var bytes: [UInt8] = []
        registry.emit(into: &bytes)
        return bytes
    }

    /// The gauges read when scraped: readiness as `/ready` decides it, the clients' pools and
    /// certificates, the recipient cache, the dispatcher's backlog and fleet, the process.
    private func updateScrapeTimeMetrics() async {
        let ready = await database.current() == nil
        registry.makeGauge(
            descriptor: MetricNameDescriptor(
                metricName: Self.readyMetric, unitName: "", helpText: "1 when GET /ready answers 200 (the database takes writes), else 0")
        ).set(ready ? 1.0 : 0.0)
        if let clients { RelayGauges.update(registry, from: clients) }
        if let recipientCache { recipientCacheMetrics.update(registry, from: recipientCache()) }
        if let dispatcher {
            DispatcherGauges.update(registry, from: dispatcher)
            dispatcher.exportCountersFromZero(apps: clients?.snapshot.map(\.app.appID) ?? [])
        }
        processMetrics.update(registry, from: ProcessStatistics.current())
    }

    static let readyMetric = "pushrelay_ready"

    /// The database must take a write lock (checked at most once a second); APNs and FCM pools are
    /// reported but do not gate readiness, since connections open lazily on the first push.
    func readiness() async -> Readiness {
        let failure = await database.current()
        let formatter = ISO8601DateFormatter()
        func state(_ sender: (any PushSender)?) -> String? {
            guard let sender else { return nil }
            guard let statistics = sender.statistics, statistics.countsConnections else { return "configured" }
            return statistics.readyConnections > 0 ? "connected" : (statistics.connections > 0 ? "connecting" : "idle")
        }
        let silence = Self.silentSeconds(dispatcher)
        let apps = (clients?.snapshot ?? []).map { app -> AppState in
            let senders = app.target?.senders ?? [:]
            let (fcm, hms) = (state(senders[.fcm]), state(senders[.hms]))
            let silent = silence[app.app.appID]
            guard let apns = senders[.apns], let statistics = apns.statistics else {
                return AppState(app_id: app.app.appID, apns: "not configured", fcm: fcm, hms: hms, silent_seconds: silent)
            }
            return AppState(
                app_id: app.app.appID, apns: state(apns) ?? "idle",
                connections: statistics.connections, ready_connections: statistics.readyConnections,
                streams_in_flight: statistics.inFlight, queued: statistics.queued,
                certificate_not_after: app.certificateNotAfter.map { formatter.string(from: $0) }, fcm: fcm, hms: hms,
                silent_seconds: silent)
        }
        return Readiness(
            status: failure == nil ? Self.ready : Self.notReady, database: failure.map { "not writable: \($0)" } ?? "writable",
            apps: apps)
    }

    static let ready = "ready"
    static let notReady = "not ready"
    /// Below this a provider is slow, not silent.
    static let silentAfterMs: Int64 = 10_000

    /// Per app, the providers silent for `silentAfterMs` or more, in whole seconds.
    private static func silentSeconds(_ dispatcher: Dispatcher?) -> [String: [String: Int]] {
        guard let dispatcher else { return [:] }
        var apps: [String: [String: Int]] = [:]
        for (key, milliseconds) in dispatcher.silence.silentMs(nowMs: dispatcher.clock()) where milliseconds >= silentAfterMs {
            apps[key.app, default: [:]][key.provider.rawValue] = Int(milliseconds / 1000)
        }
        return apps
    }

    private static func json(_ status: HTTPResponse.Status, _ body: String) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
    }

    /// Constant-time comparison of digests, as for API tokens.
    static func authorized(_ header: String?, token: Secret) -> Bool {
        guard let header, header.hasPrefix("Bearer ") else { return false }
        let presented = Array(SHA256.hash(data: Data(header.dropFirst("Bearer ".count).utf8)))
        let expected = Array(SHA256.hash(data: Data(token.value.utf8)))
        return AppRegistry.constantTimeEqual(presented, expected)
    }
}
