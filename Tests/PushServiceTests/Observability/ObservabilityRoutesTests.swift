import ConfigSupport
import TestSupport
import PushStore
import StoreContract
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Prometheus
import Testing
@testable import PushService

@Suite(.timeLimit(.minutes(5))) struct ObservabilityRoutesTests {
    /// The relay with a runtime (one app on a dev key) on a real loopback port.
    static func withRelay(
        metricsToken: String? = nil, databaseCheck: (@Sendable () async -> String?)? = nil,
        _ test: @Sendable (any TestClientProtocol, PrometheusCollectorRegistry) async throws -> Void
    ) async throws {
        let directory = try TemporaryDirectory()
        let extra = metricsToken.map { "metrics: {token: \($0)}" } ?? ""
        let configuration = try RelayConfiguration.parse(
            yaml: tokenAppYAML(database: directory.path("relay.sqlite"), extra: extra),
            environment: ConfigurationEnvironment(variables: [:]))
        var logger = Logger(label: "ObservabilityRoutesTests")
        logger.logLevel = .warning
        let registry = PrometheusCollectorRegistry()
        let relay = try await RelayApplication.build(
            configuration: configuration, logger: logger, registry: registry,
            seams: .init(databaseCheck: databaseCheck, notifier: SystemdNotifier(environment: [:])))
        let outcome = await Result {
            try await relay.makeApplication().test(.live) { client in
                try await test(client, registry)
            }
        }
        await relay.close()
        try outcome.get()
    }

    static func get(_ client: any TestClientProtocol, _ uri: String, headers: HTTPFields = [:]) async throws -> (
        HTTPResponse.Status, String, HTTPFields
    ) {
        let response = try await client.execute(uri: uri, method: .get, headers: headers, body: nil)
        return (response.status, String(buffer: response.body), response.headers)
    }

    @Test func healthIsOK() async throws {
        try await Self.withRelay { client, _ in
            let (status, body, headers) = try await Self.get(client, "/health")
            #expect(status == .ok)
            #expect(body == #"{"status":"ok"}"#)
            #expect(headers[.contentType] == "application/json; charset=utf-8")
        }
    }

    static let metricsToken = "metrics-token-0123456789"
    static let bearer: HTTPFields = [.authorization: "Bearer \(metricsToken)"]

    /// With the metrics token, `/ready` says what it checked: the database and each app's pool.
    @Test func readyReportsTheDatabaseAndEachAppsPoolToTheMetricsToken() async throws {
        try await Self.withRelay(metricsToken: Self.metricsToken) { client, _ in
            let (status, body, _) = try await Self.get(client, "/ready", headers: Self.bearer)
            #expect(status == .ok)
            let readiness = try JSONDecoder().decode(ObservabilityRoutes.Readiness.self, from: Data(body.utf8))
            #expect(readiness.status == "ready")
            #expect(readiness.database == "writable")
            #expect(
                readiness.apps == [
                    ObservabilityRoutes.AppState(
                        app_id: "app-A", states: ["apns": "idle"], connections: 0, ready_connections: 0,
                        streams_in_flight: 0, queued: 0, certificate_not_after: nil)
                ])
        }
    }

    /// Without the token (none presented, a wrong one, or none configured) `/ready` gives the
    /// status alone: no app id, certificate date or database detail for whoever can reach it.
    @Test(
        arguments: [
            (nil, nil), (nil, "Bearer \(metricsToken)"), (metricsToken, nil), (metricsToken, "Bearer wrong-token-0123456789"),
            (metricsToken, metricsToken),
        ] as [(String?, String?)])
    func readyTellsOthersOnlyTheStatus(configured: String?, authorization: String?) async throws {
        try await Self.withRelay(metricsToken: configured) { client, _ in
            var headers = HTTPFields()
            headers[.authorization] = authorization
            let (status, body, _) = try await Self.get(client, "/ready", headers: headers)
            #expect(status == .ok)
            #expect(body == #"{"status":"ready"}"#)
        }
    }

    @Test func readyIs503WhenTheDatabaseIsNotWritable() async throws {
        let check: @Sendable () async -> String? = { await DatabaseProbe(path: "/nonexistent-dir/relay.sqlite").check() }
        try await Self.withRelay(metricsToken: Self.metricsToken, databaseCheck: check) { client, _ in
            let (status, body, _) = try await Self.get(client, "/ready", headers: Self.bearer)
            #expect(status == .serviceUnavailable)
            let readiness = try JSONDecoder().decode(ObservabilityRoutes.Readiness.self, from: Data(body.utf8))
            #expect(readiness.status == "not ready")
            #expect(readiness.database.hasPrefix("not writable"))
            // The same answer to a probe, without the reason (it names the database's path).
            let (probeStatus, probeBody, _) = try await Self.get(client, "/ready")
            #expect(probeStatus == .serviceUnavailable)
            #expect(probeBody == #"{"status":"not ready"}"#)
        }
    }

    @Test func metricsAreThePrometheusTextOfTheRegistryWithPoolGauges() async throws {
        try await Self.withRelay { client, registry in
            registry.makeCounter(
                descriptor: MetricNameDescriptor(metricName: "pushrelay_pushes_total", unitName: "", helpText: "pushes"),
                labels: [("app", "app-A"), ("status", "200")]
            ).increment()
            let (status, body, headers) = try await Self.get(client, "/metrics")
            #expect(status == .ok)
            #expect(headers[.contentType] == "text/plain; version=0.0.4; charset=utf-8")
            #expect(body.contains(#"pushrelay_pushes_total{app="app-A",status="200"} 1"#))
            #expect(body.contains(#"pushrelay_apns_connections{app="app-A"} 0"#))
            #expect(body.contains(#"pushrelay_apns_streams_in_flight{app="app-A"} 0"#))
        }
    }

    /// What `/metrics` reads when scraped: readiness as `/ready` decides it, the process's own
    /// figures, and each configured app's backlog (0 before its first push). On SQLite there is
    /// no fleet, so no fleet gauges.
    @Test func metricsShowReadinessTheProcessAndEachAppsBacklog() async throws {
        try await Self.withRelay { client, _ in
            let (status, body, _) = try await Self.get(client, "/metrics")
            #expect(status == .ok)
            #expect(body.contains("\n# TYPE pushrelay_ready gauge\npushrelay_ready 1.0\n"), "\(body)")
            #expect(body.contains(#"pushrelay_app_queue_depth{app="app-A"} 0"#), "\(body)")
            for name in [
                "process_cpu_seconds_total", "process_resident_memory_bytes", "process_virtual_memory_bytes", "process_open_fds",
                "process_max_fds", "process_start_time_seconds",
            ] {
                let value = Self.value(of: name, in: body)
                #expect(value.map { $0 > 0 } == true, "\(name): \(String(describing: value))")
            }
            #expect(!body.contains("pushrelay_fleet_nodes"))
            #expect(!body.contains("pushrelay_claims_held"))
        }
    }

    @Test func readyIsZeroInMetricsWhileTheDatabaseIsNotWritable() async throws {
        let check: @Sendable () async -> String? = { await DatabaseProbe(path: "/nonexistent-dir/relay.sqlite").check() }
        try await Self.withRelay(databaseCheck: check) { client, _ in
            let (status, body, _) = try await Self.get(client, "/metrics")
            #expect(status == .ok)
            #expect(body.contains("\npushrelay_ready 0.0\n"), "\(body)")
        }
    }

    /// The value of an unlabelled metric's line.
    static func value(of name: String, in text: String) -> Double? {
        text.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Double($0.split(separator: " ")[1]) }
    }

    /// Two relays on one PostgreSQL database: each one's `/metrics` counts both as the fleet's
    /// nodes (read by the dispatcher's upkeep from the database's sessions), and the claims it holds.
    @Test func onPostgreSQLMetricsShowTheFleetsNodesAndTheClaimsHeld() async throws {
        let cluster = try await PostgresCluster.shared()
        let url = cluster.url(database: try await cluster.createDatabase())
        func configuration(node: String) throws -> RelayConfiguration {
            try RelayConfiguration.parse(
                yaml: tokenAppYAML(database: "unused").replacingOccurrences(
                    of: "database: {path: unused}", with: "database: {postgres: {url: '\(url)', node_id: \(node), pool_size: 2}}"),
                environment: ConfigurationEnvironment(variables: [:]))
        }
        var logger = Logger(label: "ObservabilityRoutesTests")
        logger.logLevel = .warning
        let other = try await RelayApplication.build(configuration: try configuration(node: "relay-b"), logger: logger)
        let registry = PrometheusCollectorRegistry()
        let relay = try await RelayApplication.build(
            configuration: try configuration(node: "relay-a"), logger: logger, registry: registry,
            seams: .init(notifier: SystemdNotifier(environment: [:])))
        let outcome = await Result {
            try await relay.makeApplication().test(.live) { client in
                // The upkeep reads the fleet as the dispatcher starts, then every 5 s.
                let deadline = ContinuousClock.now + .seconds(30)
                var body = ""
                while ContinuousClock.now < deadline {
                    body = try await Self.get(client, "/metrics").1
                    if Self.value(of: "pushrelay_fleet_nodes", in: body) == 2 { break }
                    try await Task.sleep(for: .milliseconds(50))
                }
                #expect(Self.value(of: "pushrelay_fleet_nodes", in: body) == 2, "\(body)")
                #expect(Self.value(of: "pushrelay_claims_held", in: body) == 0, "\(body)")
                #expect(body.contains("\npushrelay_ready 1.0\n"), "\(body)")
            }
        }
        await relay.close()
        await other.close()
        try outcome.get()
    }

    @Test func metricsCanNeedABearerToken() async throws {
        try await Self.withRelay(metricsToken: "metrics-token-0123456789") { client, _ in
            let missing = try await Self.get(client, "/metrics").0
            let wrong = try await Self.get(client, "/metrics", headers: [.authorization: "Bearer wrong-token-0123456789"]).0
            let right = try await Self.get(client, "/metrics", headers: [.authorization: "Bearer metrics-token-0123456789"]).0
            // Health stays open for probes.
            let health = try await Self.get(client, "/health").0
            #expect(missing == .unauthorized)
            #expect(wrong == .unauthorized)
            #expect(right == .ok)
            #expect(health == .ok)
        }
    }

    @Test func certificateExpiryIsAGauge() async throws {
        let registry = PrometheusCollectorRegistry()
        let config = try RelayConfiguration.parse(
            yaml: """
                listen: {}
                database: {path: p}
                apps:
                  - app_id: C
                    api_token: aaaaaaaaaaaaaaaaaaaa
                    apns: {topic: t, auth: {certificate: {p12_file: \(Repository.privateDevCert("client.p12")), password: secret}}}
                """)
        let clients = try await PushClients.build(configuration: config, logger: Logger(label: "test"))
        RelayGauges.update(registry, from: clients)
        let notAfter = try #require(clients.snapshot.first?.certificateNotAfter)
        let text = registry.emitToString()
        #expect(text.contains(#"pushrelay_certificate_expiry_seconds{app="C"} \#(notAfter.timeIntervalSince1970)"#))
        await clients.shutdown()
    }
}

/// The recipient cache's counters are Prometheus counters fed from the store's totals at each
/// scrape: they add what is new, never go back, and racing scrapes add nothing twice.
@Suite(.timeLimit(.minutes(5))) struct RecipientCacheMetricsTests {
    private func text(_ registry: PrometheusCollectorRegistry) -> String {
        var bytes: [UInt8] = []
        registry.emit(into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func scrapesAddWhatIsNew() {
        let registry = PrometheusCollectorRegistry()
        let metrics = RecipientCacheMetrics()
        metrics.update(registry, from: RecipientCacheStatistics(hits: 1, misses: 2, users: 2, bytes: 900))
        var body = text(registry)
        #expect(body.contains(#"pushrelay_recipient_cache_lookups_total{result="hit"} 1"#), "\(body)")
        #expect(body.contains(#"pushrelay_recipient_cache_lookups_total{result="miss"} 2"#))
        #expect(body.contains("pushrelay_recipient_cache_users 2"))
        #expect(body.contains("pushrelay_recipient_cache_bytes 900"))
        metrics.update(registry, from: RecipientCacheStatistics(hits: 5, misses: 2, users: 3, bytes: 1200))
        // A scrape that read older totals (it raced the one above) changes nothing.
        metrics.update(registry, from: RecipientCacheStatistics(hits: 4, misses: 1, users: 3, bytes: 1200))
        body = text(registry)
        #expect(body.contains(#"pushrelay_recipient_cache_lookups_total{result="hit"} 5"#), "\(body)")
        #expect(body.contains(#"pushrelay_recipient_cache_lookups_total{result="miss"} 2"#))
        #expect(body.contains("pushrelay_recipient_cache_users 3"))
    }

    @Test func theRelaysMetricsIncludeTheCache() async throws {
        try await ObservabilityRoutesTests.withRelay { client, _ in
            let (status, body, _) = try await ObservabilityRoutesTests.get(client, "/metrics")
            #expect(status == .ok)
            #expect(body.contains(#"pushrelay_recipient_cache_lookups_total{result="miss"} 0"#), "\(body)")
            #expect(body.contains("pushrelay_recipient_cache_users 0"))
        }
    }
}
