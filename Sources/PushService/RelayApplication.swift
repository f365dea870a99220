import ConfigSupport
import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import Prometheus
import ProviderDriver
import PushEngine
import PushStore
import StoreContract
import ServiceLifecycle

/// The whole relay, assembled in this one place: the database, each app's APNs clients, the
/// webhook intake, the dispatcher, the delivery-log pruner, and the HTTP server with the REST
/// API (test pushes included), the webhook and the health and metrics routes. `push-relay serve`, `relay-bench` and the
/// tests all build it here, so the tests run the production wiring; what they replace is in
/// `Seams`.
///
/// ```swift
/// let relay = try await RelayApplication.build(configuration: config, configurationPath: path,
///                                              logger: logger, registry: registry)
/// try await relay.run { port in print("listening on \(port)") }   // until SIGTERM / SIGINT
/// ```
public final class RelayApplication: Sendable {
    /// What tests and benchmarks replace. Production passes none of them.
    public struct Seams: Sendable {
        /// Where pushes go, instead of APNs clients built from the configuration (a mock, a sink).
        public var targets: (any DeliveryTargetProvider)?
        /// The dispatcher's tuning, instead of the one derived from `delivery` in the configuration.
        public var dispatcher: DispatcherConfiguration?
        /// An opened store, instead of opening `database.path` (e.g. with another durability).
        public var store: (any RelayStore)?
        /// Unix milliseconds, for the webhook, the dispatcher, the pruner and session tokens (one
        /// clock: a test that accepts events "in 2023" must not see them pruned as old).
        public var clock: @Sendable () -> Int64
        /// The database check behind `/ready`, instead of the store's `checkWritable`.
        public var databaseCheck: (@Sendable () async -> String?)?
        public var notifier: SystemdNotifier
        public var environment: ConfigurationEnvironment
        /// The notifications' fan-out tuning (batch size, hold, poll).
        public var fanOut = NotificationFanOut.Settings()

        public init(
            targets: (any DeliveryTargetProvider)? = nil, dispatcher: DispatcherConfiguration? = nil,
            store: (any RelayStore)? = nil, clock: @escaping @Sendable () -> Int64 = WallClock.milliseconds,
            databaseCheck: (@Sendable () async -> String?)? = nil, notifier: SystemdNotifier = SystemdNotifier(),
            environment: ConfigurationEnvironment = .process
        ) {
            self.targets = targets
            self.dispatcher = dispatcher
            self.store = store
            self.clock = clock
            self.databaseCheck = databaseCheck
            self.notifier = notifier
            self.environment = environment
        }
    }

    public let configurationPath: String?
    public let api: RelayAPI
    /// Each app's APNs clients, built from the configuration and swapped in place on reload;
    /// nil when `Seams.targets` replaced them.
    public let clients: PushClients?
    /// Where the dispatcher sends: `clients`, or the seam.
    public let targets: any DeliveryTargetProvider
    public let dispatcher: Dispatcher
    public let webhook: WebhookIntake
    public let pruner: DeliveryLogPruner
    /// `POST /v3/push/test`: through `targets`, waiting at most `TestPush.defaultTimeout` (or the
    /// dispatcher's deadline, when shorter).
    public let testPush: TestPush
    /// Starts, updates and ends Live Activities through the queue, waking the dispatcher.
    let liveActivities: LiveActivities
    /// Plans notifications of the app's server (`POST /v3/notifications`) batch by batch.
    public let fanOut: NotificationFanOut
    /// The notifications API's side: stores them and pokes `fanOut`.
    let notifications: Notifications
    public let registry: PrometheusCollectorRegistry
    public let notifier: SystemdNotifier
    public let logger: Logger
    /// The store's writability, shared by `/ready` and (on a shared store) the webhook.
    private let databaseReadiness: DatabaseReadiness
    /// `/health`, `/ready` and `/metrics`; the console's overview reads the same metrics.
    private let observability: ObservabilityRoutes
    /// The operator console (`console.enabled`) and the readings of counters its overview
    /// subtracts; nil when it is off.
    private let console: (routes: ConsoleRoutes, history: CounterHistory)?
    private let environment: ConfigurationEnvironment

    public var store: any RelayStore { api.store }
    public var configuration: RelayConfiguration { api.configuration }

    private init(
        configurationPath: String?, api: RelayAPI, clients: PushClients?, seams: Seams,
        registry: PrometheusCollectorRegistry, logger: Logger
    ) {
        let configuration = api.configuration
        self.configurationPath = configurationPath
        self.api = api
        self.clients = clients
        let targets: any DeliveryTargetProvider = seams.targets ?? clients ?? StaticDeliveryTargets([:])
        self.targets = targets
        dispatcher = Dispatcher(
            store: api.store, targets: targets,
            configuration: seams.dispatcher
                ?? DispatcherConfiguration(
                    initialBackoff: configuration.delivery.retryInitialBackoff,
                    maximumBackoff: configuration.delivery.retryMaximumBackoff,
                    shutdownGrace: configuration.delivery.shutdownGrace,
                    maxBacklog: configuration.delivery.maxBacklog),
            clock: seams.clock, erasedUsers: api.erasedUsers,
            logger: Logger(label: "push-relay.dispatcher", factory: { _ in logger.handler }))
        // Every configured app in the backlog from the start, so `/metrics` shows each one's depth (at 0).
        dispatcher.backlog.seed(Dictionary(configuration.apps.map { ($0.appID, 0) }, uniquingKeysWith: { first, _ in first }))
        let store = api.store
        let readiness = DatabaseReadiness(check: seams.databaseCheck ?? { await store.checkWritable() })
        databaseReadiness = readiness
        webhook = api.makeWebhookIntake(
            targets: targets, dispatcher: dispatcher, storeReadiness: store.isShared ? readiness : nil, clock: seams.clock)
        // Prune at least four times per retention period (hourly for the default week), so a
        // short `prune_after` really bounds the database.
        let pruneAfter = configuration.delivery.pruneAfter
        pruner = DeliveryLogPruner(
            store: api.store, maximumAge: pruneAfter,
            interval: max(.seconds(1), min(.seconds(3600), pruneAfter / 4)),
            sessionLifetime: configuration.apps.map(\.limits.maxSessionLifetime).max() ?? AppLimits.defaultMaxSessionLifetime,
            clock: seams.clock)
        testPush = TestPush(
            store: api.store, targets: targets, timeout: min(TestPush.defaultTimeout, dispatcher.configuration.requestTimeout),
            clock: seams.clock,
            logger: Logger(label: "push-relay.test-push", factory: { _ in logger.handler }))
        liveActivities = LiveActivities(
            store: api.store, targets: targets, wake: { [dispatcher] in dispatcher.wake() }, clock: seams.clock)
        fanOut = NotificationFanOut(
            store: api.store, targets: targets, settings: seams.fanOut, owner: configuration.database.workOwner, clock: seams.clock,
            wakeDispatcher: { [dispatcher] in dispatcher.wake() }, backlog: dispatcher.backlog,
            logger: Logger(label: "push-relay.notifications", factory: { _ in logger.handler }))
        notifications = Notifications(store: api.store, clock: seams.clock, poke: { [fanOut] in fanOut.poke() })
        self.registry = registry
        // Every operation's series from 0, so that an alert on their increase sees the first error.
        DatabaseErrors.startAtZero()
        let observability = ObservabilityRoutes(
            database: readiness, clients: clients, registry: registry, metricsToken: configuration.metrics.token,
            recipientCache: { [store] in store.recipientCacheStatistics }, dispatcher: dispatcher)
        self.observability = observability
        let exposition: @Sendable () async -> String = { String(decoding: await observability.exposition(), as: UTF8.self) }
        let history = CounterHistory(exposition: exposition, wallMs: seams.clock)
        console = api.makeConsole(
            overview: ConsoleOverviewSource(exposition: exposition, history: history), testPush: testPush
        ).map {
            (routes: $0, history: history)
        }
        self.notifier = seams.notifier
        self.logger = logger
        self.environment = seams.environment
    }

    /// Opens the database and builds every app's APNs client (unless `seams` replace them).
    /// Throws `RuntimeError` for a bad credential, or the store's error when the database cannot
    /// be opened.
    public static func build(
        configuration: RelayConfiguration, configurationPath: String? = nil, logger: Logger,
        registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry(),
        seams: Seams = Seams()
    ) async throws -> RelayApplication {
        // Before anything opens descriptors: HTTP connections, APNs and SQLite share the table.
        DescriptorBudget(configuration: configuration).apply(logger: logger)
        seams.notifier.status("opening the database")
        let store: any RelayStore
        if let given = seams.store { store = given } else { store = try await openStore(configuration.database, logger: logger) }
        let api = try await RelayAPI(configuration: configuration, store: store, logger: logger, clock: seams.clock)
        var clients: PushClients?
        if seams.targets == nil {
            seams.notifier.status("loading the providers' credentials")
            let built = try await PushClients.build(configuration: configuration, logger: logger)
            for app in built.snapshot {
                if app.target == nil {
                    let sections = ProviderCatalog.installed.descriptions.map(\.id.rawValue).joinedWithOr
                    logger.warning("app has no \(sections) settings: its pushes are not sent", metadata: ["app": .string(app.app.appID)])
                }
                if let notAfter = app.certificateNotAfter, notAfter.timeIntervalSinceNow < 30 * 86_400 {
                    logger.warning(
                        "client certificate expires soon", metadata: ["app": .string(app.app.appID), "not_after": .string("\(notAfter)")])
                }
            }
            clients = built
        }
        return RelayApplication(
            configurationPath: configurationPath, api: api, clients: clients, seams: seams,
            registry: registry, logger: logger)
    }

    /// Every route: REST, webhook, OpenAPI, health, readiness, metrics and (when on) the console.
    public func makeRouter() -> Router<RelayRequestContext> {
        api.makeRouter(
            observability: observability, webhook: webhook, testPush: testPush, console: console?.routes,
            liveActivities: liveActivities,
            notifications: notifications)
    }

    /// The HTTP server on `listen`, running the dispatcher, the pruner and `extraServices` beside
    /// it. `onListening` gets the bound port once the server accepts connections (the real one
    /// when the configured port is 0). `run()` runs it with signals and reload; tests run it
    /// with HummingbirdTesting.
    public func makeApplication(
        extraServices: [any Service] = [],
        onListening: @escaping @Sendable (Int) async -> Void = { _ in }
    )
        -> Application<RouterResponder<RelayRequestContext>>
    {
        let logger = self.logger
        let http = configuration.http
        let connections = ConnectionGate(
            maximum: http.maxConnections, headerTimeout: http.headerTimeout, bodyTimeout: http.bodyTimeout,
            idleTimeout: http.idleTimeout, sendTimeout: http.sendTimeout, logger: logger)
        return Application(
            router: makeRouter(),
            server: .http1(configuration: Self.http1(connections: connections)),
            configuration: ApplicationConfiguration(
                address: .hostname(configuration.listen.host, port: configuration.listen.port),
                serverName: "push-relay",
                availableConnectionsDelegate: connections.acceptLimit
            ),
            services: [dispatcher, pruner, api.credentials, NotificationFanOutService(fanOut: fanOut)]
                + (console.map { [$0.history as any Service] } ?? []) + extraServices,
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                logger.info(
                    "listening", metadata: ["host": .string(channel.localAddress?.ipAddress ?? "?"), "port": .stringConvertible(port)])
                await onListening(port)
            },
            logger: logger
        )
    }

    /// HTTP/1.1 limits: headers are bounded well below NIO's defaults (Sendbird's webhook and
    /// the REST API send a handful of short ones); beyond them the parser answers 431/400 and
    /// closes the connection. Open connections are capped, and each request's head and body
    /// must arrive by their deadlines (`http.header_timeout`, `http.body_timeout`), both
    /// enforced by `gate` (see `ConnectionLimiter`, `RequestProgress`). Hummingbird's idle
    /// timeout is off: every byte restarts it, and the deadlines bound every phase it covered.
    static func http1(connections gate: ConnectionGate) -> HTTP1Channel.Configuration {
        HTTP1Channel.Configuration(
            additionalChannelHandlers: [ConnectionLimitHandler(gate: gate)],
            idleTimeout: nil,
            httpDecoderConfiguration: .init(maxHeaderFieldSize: 16 * 1024, maxHeaderListSize: 64 * 1024, maxHeaderFieldCount: 100))
    }

    /// Runs until SIGTERM / SIGINT, then stops gracefully: the server stops accepting, the
    /// dispatcher finishes, the APNs clients close after their in-flight requests, and the store
    /// closes. SIGHUP reloads (`reload()`); systemd hears READY=1 once the listener is up, and
    /// watchdog pings.
    public func run(onListening: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        let notifier = self.notifier
        let apps = configuration.apps.count
        let reloader = await ReloadService { [self] in _ = await self.reload() }
        let application = makeApplication(
            extraServices: [SystemdService(notifier: notifier), reloader],
            onListening: { port in
                // The database is open (build) and the listener is up: systemd may send traffic.
                notifier.ready(status: "serving \(apps) app(s) on port \(port)")
                await onListening(port)
            })
        // Services stop in reverse order, each once the one after it has: the deadline is armed
        // first, before the application's HTTP server waits for the requests under way.
        let deadline = StopDeadline(limit: configuration.delivery.shutdownGrace + Self.stopDeadlineAfterGrace, logger: logger)
        var group = ServiceGroupConfiguration(
            services: [application, deadline], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        // A safety net: the dispatcher honours delivery.shutdown_grace itself; a service still
        // running well past it is cancelled rather than holding the stop until systemd kills it.
        group.maximumGracefulShutdownDuration = configuration.delivery.shutdownGrace + .seconds(10)
        do {
            try await ServiceGroup(configuration: group).run()
        } catch let error as IOError where ListenError.bindErrors.contains(error.errnoCode) {
            await close()
            throw ListenError(listen: configuration.listen, errno: error.errnoCode)
        } catch {
            await close()
            throw error
        }
        await close()
        logger.info("stopped")
    }

    /// After the services have stopped: closes the APNs clients, then the store.
    public func close() async {
        await closeClients()
        await closeStore()
    }

    /// Closes the APNs clients, waiting at most `clientCloseLimit`. Each pool bounds its own drain
    /// (5 s), so this is a safety net: whatever happens on the APNs side, the stop stays within
    /// systemd's TimeoutStopSec. Everything accepted is in SQLite by now, and unfinished sends are
    /// resumed at the next start.
    private func closeClients() async {
        guard let clients else { return }
        let closed = await firstFinished(Task { await clients.shutdown() }, orAfter: Self.clientCloseLimit)
        if !closed {
            logger.warning(
                "provider connections did not close in time; exiting anyway",
                metadata: ["limit": "\(Self.clientCloseLimit)"])
        }
    }

    static let clientCloseLimit: Duration = .seconds(6)

    /// Closes the store, waiting at most `storeCloseLimit`. On SQLite the last connection to
    /// close copies the WAL into the database file and deletes it, so a stopped relay leaves the
    /// one file: a copy of it is the whole database, and a backup put in its place meets no
    /// stale WAL of the old one. Bounded like the clients, so a PostgreSQL server that stopped
    /// answering does not hold the stop.
    private func closeStore() async {
        let store = self.store
        let logger = self.logger
        let closing = Task {
            do {
                try await store.close()
            } catch {
                logger.warning("closing the database failed", metadata: ["error": "\(store.describe(error))"])
            }
        }
        if await !firstFinished(closing, orAfter: Self.storeCloseLimit) {
            logger.warning("the database did not close in time; exiting anyway", metadata: ["limit": "\(Self.storeCloseLimit)"])
        }
    }

    static let storeCloseLimit: Duration = .seconds(3)

    /// `StopDeadline`'s limit beyond `delivery.shutdown_grace`: above the bounded steps (the
    /// dispatcher's last writes 3 s and fleet query 2 s, the clients 6 s, the store 3 s), below
    /// the systemd unit's TimeoutStopSec (the grace + 22 s).
    static let stopDeadlineAfterGrace: Duration = .seconds(20)

    /// SIGHUP: re-reads the configuration file, swaps in new APNs clients and the apps'
    /// templates (push and notification templates). An unreadable or invalid file, or a credential that fails to load, keeps the
    /// running configuration. Accepted work is in SQLite and is not touched.
    /// Listen address, database, API tokens and webhook secrets are read at start only.
    /// - Returns: whether the new configuration was applied.
    @discardableResult
    public func reload() async -> Bool {
        guard let configurationPath else { return false }
        notifier.reloading(status: "reloading \(configurationPath)")
        defer { notifier.ready(status: "serving") }
        let fresh: RelayConfiguration
        do {
            fresh = try RelayConfiguration.load(path: configurationPath, environment: environment)
        } catch {
            logger.error("reload failed, keeping the running configuration", metadata: ["error": .string("\(error)")])
            return false
        }
        do {
            try await clients?.reload(configuration: fresh)
        } catch {
            logger.error("reload failed, keeping the running configuration", metadata: ["error": .string("\(error)")])
            return false
        }
        api.templates.replace(with: fresh.apps)
        api.notificationSettings.replace(with: fresh.apps)
        api.consoleUsers.replace(with: fresh.console.users)
        let running = configuration
        if fresh.listen != running.listen || fresh.database != running.database
            || fresh.apps.map(\.appID) != running.apps.map(\.appID) || fresh.apps.map(\.apiToken) != running.apps.map(\.apiToken)
            || fresh.apps.map(\.webhookSecret) != running.apps.map(\.webhookSecret)
        {
            logger.warning("listen, database, the app list, api tokens and webhook secrets change only on restart")
        }
        for warning in fresh.warnings { logger.warning("\(warning)") }
        logger.info("configuration reloaded", metadata: ["apps": .string(fresh.apps.map(\.appID).joined(separator: ","))])
        return true
    }
}
