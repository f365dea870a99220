import APNs
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
public struct ObservabilityRoutes: Sendable {
    public let database: DatabaseReadiness
    public let clients: PushClients?
    public let registry: PrometheusCollectorRegistry
    public let metricsToken: Secret?
    /// The webhook's recipient cache, read at scrape time.
    public let recipientCache: (@Sendable () -> RecipientCacheStatistics)?
    private let recipientCacheMetrics = RecipientCacheMetrics()

    public init(
        database: DatabaseReadiness, clients: PushClients?, registry: PrometheusCollectorRegistry, metricsToken: Secret?,
        recipientCache: (@Sendable () -> RecipientCacheStatistics)? = nil
    ) {
        self.database = database
        self.clients = clients
        self.registry = registry
        self.metricsToken = metricsToken
        self.recipientCache = recipientCache
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
    }

    struct Readiness: Codable, Equatable {
        var status: String
        var database: String
        var apps: [AppState]
    }

    public func register(on router: Router<RelayRequestContext>) {
        router.get("health") { _, _ in
            Self.json(.ok, #"{"status":"ok"}"#)
        }
        router.get("ready") { _, _ in
            let state = await readiness()
            let body = (try? RelayRequestContext.jsonEncoder.encode(state)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
            return Self.json(state.status == "ready" ? .ok : .serviceUnavailable, body)
        }
        router.get("metrics") { request, _ in
            if let metricsToken, !Self.authorized(request.headers[.authorization], token: metricsToken) {
                return Response(
                    status: .unauthorized, headers: [.wwwAuthenticate: "Bearer", .contentType: "text/plain; charset=utf-8"],
                    body: ResponseBody(byteBuffer: ByteBuffer(string: "metrics need Authorization: Bearer <metrics.token>\n")))
            }
            if let clients { RelayGauges.update(registry, from: clients) }
            if let recipientCache { recipientCacheMetrics.update(registry, from: recipientCache()) }
            var bytes: [UInt8] = []
            registry.emit(into: &bytes)
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
        }
    }

    /// The database must take a write lock (checked at most once a second); APNs and FCM pools are
    /// reported but do not gate readiness, since connections open lazily on the first push.
    func readiness() async -> Readiness {
        let failure = await database.current()
        let formatter = ISO8601DateFormatter()
        func state(_ statistics: APNsClientStatistics) -> String {
            statistics.readyConnections > 0 ? "connected" : (statistics.connections > 0 ? "connecting" : "idle")
        }
        let apps = (clients?.snapshot ?? []).map { app -> AppState in
            let fcm = app.target?.fcm.map { state($0.statistics) }
            guard let apns = app.target?.apns else { return AppState(app_id: app.app.appID, apns: "not configured", fcm: fcm) }
            let statistics = apns.statistics
            return AppState(
                app_id: app.app.appID, apns: state(statistics),
                connections: statistics.connections, ready_connections: statistics.readyConnections,
                streams_in_flight: statistics.streamsInFlight, queued: statistics.queued,
                certificate_not_after: app.certificateNotAfter.map { formatter.string(from: $0) }, fcm: fcm)
        }
        return Readiness(
            status: failure == nil ? "ready" : "not ready", database: failure.map { "not writable: \($0)" } ?? "writable", apps: apps)
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
