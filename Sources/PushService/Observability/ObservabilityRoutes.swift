import ConfigSupport
import ProviderDriver
import PushCore
import PushEngine
import PushSending
import PushStore
import StoreContract
import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Prometheus

/// `GET /health` (liveness), `GET /ready` (database writable; each app's providers) and
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

    /// An app in `/ready`: each configured provider's state under its id (`"apns": "idle"`, `"fcm": "connected"`),
    /// the first listed provider's as `not configured` too; that provider's pool figures and certificate.
    struct AppState: Codable, Equatable {
        var app_id: String
        var states: [String: String]
        var connections: Int?
        var ready_connections: Int?
        var streams_in_flight: Int?
        var queued: Int?
        var certificate_not_after: String?
        /// Providers that have answered nothing for 10 s or more while pushes waited on them, and
        /// for how many seconds (absent when every provider answers). Not a reason to be unready:
        /// accepted events are still committed and wait for the provider.
        var silent_seconds: [String: Int]?

        private enum Fixed: String, CaseIterable {
            case app_id, connections, ready_connections, streams_in_flight, queued, certificate_not_after, silent_seconds
        }

        private struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(_ string: String) { stringValue = string }
            init?(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        init(
            app_id: String, states: [String: String], connections: Int? = nil, ready_connections: Int? = nil,
            streams_in_flight: Int? = nil, queued: Int? = nil, certificate_not_after: String? = nil, silent_seconds: [String: Int]? = nil
        ) {
            self.app_id = app_id
            self.states = states
            self.connections = connections
            self.ready_connections = ready_connections
            self.streams_in_flight = streams_in_flight
            self.queued = queued
            self.certificate_not_after = certificate_not_after
            self.silent_seconds = silent_seconds
        }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Key.self)
            app_id = try c.decode(String.self, forKey: Key("app_id"))
            connections = try c.decodeIfPresent(Int.self, forKey: Key("connections"))
            ready_connections = try c.decodeIfPresent(Int.self, forKey: Key("ready_connections"))
            streams_in_flight = try c.decodeIfPresent(Int.self, forKey: Key("streams_in_flight"))
            queued = try c.decodeIfPresent(Int.self, forKey: Key("queued"))
            certificate_not_after = try c.decodeIfPresent(String.self, forKey: Key("certificate_not_after"))
            silent_seconds = try c.decodeIfPresent([String: Int].self, forKey: Key("silent_seconds"))
            let fixed = Set(Fixed.allCases.map(\.rawValue))
            states = [:]
            for key in c.allKeys where !fixed.contains(key.stringValue) {
                states[key.stringValue] = try c.decode(String.self, forKey: key)
            }
        }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Key.self)
            try c.encode(app_id, forKey: Key("app_id"))
            for (provider, state) in states.sorted(by: { $0.key < $1.key }) { try c.encode(state, forKey: Key(provider)) }
            try c.encodeIfPresent(connections, forKey: Key("connections"))
            try c.encodeIfPresent(ready_connections, forKey: Key("ready_connections"))
            try c.encodeIfPresent(streams_in_flight, forKey: Key("streams_in_flight"))
            try c.encodeIfPresent(queued, forKey: Key("queued"))
            try c.encodeIfPresent(certificate_not_after, forKey: Key("certificate_not_after"))
            try c.encodeIfPresent(silent_seconds, forKey: Key("silent_seconds"))
        }
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

    /// The database must take a write lock (checked at most once a second); providers' pools are
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
        let primary = ProviderCatalog.installed.descriptions.first?.id
        let apps = (clients?.snapshot ?? []).map { app -> AppState in
            let senders = app.target?.senders ?? [:]
            var states = senders.compactMapValues(state)
            let silent = silence[app.app.appID]
            guard let primary, let sender = senders[primary], let statistics = sender.statistics else {
                if let primary, states[primary] == nil { states[primary] = "not configured" }
                return AppState(
                    app_id: app.app.appID, states: Dictionary(uniqueKeysWithValues: states.map { ($0.key.rawValue, $0.value) }),
                    silent_seconds: silent)
            }
            return AppState(
                app_id: app.app.appID, states: Dictionary(uniqueKeysWithValues: states.map { ($0.key.rawValue, $0.value) }),
                connections: statistics.connections, ready_connections: statistics.readyConnections,
                streams_in_flight: statistics.inFlight, queued: statistics.queued,
                certificate_not_after: app.certificateNotAfter.map { formatter.string(from: $0) }, silent_seconds: silent)
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
