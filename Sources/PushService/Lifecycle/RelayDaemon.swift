import PushStore
import Foundation
import Hummingbird
import Logging
import Prometheus
import ServiceLifecycle
import Synchronization

/// The whole service as `push-relay serve` runs it: the database, each app's APNs clients
/// (`runtime`), the HTTP server with the REST API and the health and metrics routes, sd_notify
/// and SIGHUP reload. `run()` returns after SIGTERM / SIGINT once everything has stopped.
///
/// ```swift
/// let daemon = try await RelayDaemon.start(configurationPath: path, configuration: config,
///                                          logger: logger, registry: registry)
/// // the pipeline: daemon.runtime is the DeliveryTargetProvider; add routes and services:
/// try await daemon.run(extraServices: [dispatcher]) { router in router.post("webhooks/sendbird") { … } }
/// ```
public final class RelayDaemon: Sendable {
    public let configurationPath: String?
    public let service: RelayService
    /// Each app's delivery target; pass it to the dispatcher. Swapped in place on reload.
    public let runtime: RelayRuntime
    public let registry: PrometheusCollectorRegistry
    public let notifier: SystemdNotifier
    public let logger: Logger
    private let environment: ConfigurationEnvironment

    public init(configurationPath: String?, service: RelayService, runtime: RelayRuntime,
                registry: PrometheusCollectorRegistry, notifier: SystemdNotifier, logger: Logger,
                environment: ConfigurationEnvironment = .process) {
        self.configurationPath = configurationPath
        self.service = service
        self.runtime = runtime
        self.registry = registry
        self.notifier = notifier
        self.logger = logger
        self.environment = environment
    }

    /// Opens the database and builds every app's APNs client. Throws `RuntimeError` for a bad
    /// credential, or the store's error when the database cannot be opened.
    public static func start(configurationPath: String?, configuration: RelayConfiguration, logger: Logger,
                             registry: PrometheusCollectorRegistry, notifier: SystemdNotifier = SystemdNotifier(),
                             environment: ConfigurationEnvironment = .process) async throws -> RelayDaemon {
        // Before anything opens descriptors: HTTP connections, APNs and SQLite share the table.
        DescriptorBudget(configuration: configuration).apply(logger: logger)
        notifier.status("opening the database")
        let service = try RelayService.open(configuration: configuration, logger: logger)
        notifier.status("loading APNs credentials")
        let runtime = try await RelayRuntime.build(configuration: configuration, logger: logger)
        for app in runtime.snapshot {
            if app.target == nil { logger.warning("app has no apns settings: its pushes are not sent", metadata: ["app": .string(app.app.appID)]) }
            if let notAfter = app.certificateNotAfter, notAfter.timeIntervalSinceNow < 30 * 86_400 {
                logger.warning("APNs certificate expires soon", metadata: ["app": .string(app.app.appID), "not_after": .string("\(notAfter)")])
            }
        }
        return RelayDaemon(configurationPath: configurationPath, service: service, runtime: runtime, registry: registry,
                           notifier: notifier, logger: logger, environment: environment)
    }

    /// The router with every route this module owns.
    public func makeRouter() -> Router<RelayRequestContext> {
        service.makeRouter(observability: ObservabilityRoutes(
            database: DatabaseProbe(path: service.store.path), runtime: runtime, registry: registry,
            metricsToken: service.configuration.metrics.token))
    }

    /// Runs until SIGTERM / SIGINT, then stops gracefully: the server stops accepting, the
    /// services (dispatcher) finish, and the APNs clients close after their in-flight requests.
    /// - Parameters:
    ///   - extraServices: run beside the server and stopped with it — the lead adds the
    ///     delivery dispatcher here.
    ///   - addRoutes: adds routes before the server starts — the lead adds the webhook route here.
    ///   - onListening: gets the bound port once the server accepts connections.
    public func run(extraServices: [any Service] = [],
                    addRoutes: (Router<RelayRequestContext>) -> Void = { _ in },
                    onListening: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        let router = makeRouter()
        addRoutes(router)
        let notifier = self.notifier
        let apps = service.configuration.apps.count
        let reloader = await ReloadService { [self] in _ = await self.reload() }
        let services: [any Service] = extraServices + [SystemdService(notifier: notifier), reloader]
        let application = service.makeApplication(router: router, services: services, onListening: { port in
            // The database is open (start) and the listener is up: systemd may send traffic.
            notifier.ready(status: "serving \(apps) app(s) on port \(port)")
            await onListening(port)
        })
        var group = ServiceGroupConfiguration(services: [application], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        // A safety net: the dispatcher honours delivery.shutdown_grace itself; a service still
        // running well past it is cancelled rather than holding the stop until systemd kills it.
        group.maximumGracefulShutdownDuration = service.configuration.delivery.shutdownGrace + .seconds(10)
        do {
            try await ServiceGroup(configuration: group).run()
        } catch {
            await closeClients()
            throw error
        }
        await closeClients()
        logger.info("stopped")
    }

    /// Closes the APNs clients, waiting at most `clientCloseLimit`. Each pool bounds its own drain
    /// (5 s), so this is a safety net: whatever happens on the APNs side, the stop stays within
    /// systemd's TimeoutStopSec. Everything accepted is in SQLite by now, and unfinished sends are
    /// resumed at the next start.
    private func closeClients() async {
        let runtime = self.runtime
        let closed = await firstFinished(Task { await runtime.shutdown() }, orAfter: Self.clientCloseLimit)
        if !closed {
            logger.warning("APNs connections did not close in time; exiting anyway",
                           metadata: ["limit": "\(Self.clientCloseLimit)"])
        }
    }

    static let clientCloseLimit: Duration = .seconds(6)

    /// True when `task` finishes before `limit`; false otherwise, leaving it to run (it is not awaited).
    private func firstFinished(_ task: Task<Void, Never>, orAfter limit: Duration) async -> Bool {
        let first = FirstResume()
        return await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            first.set(continuation)
            Task {
                await task.value
                first.resume(returning: true)
            }
            Task {
                try? await Task.sleep(for: limit)
                first.resume(returning: false)
            }
        }
    }

    /// SIGHUP: re-reads the configuration file, swaps in new APNs clients and the apps'
    /// templates. An unreadable or invalid file, or a credential that fails to load, keeps the
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
            try await runtime.reload(configuration: fresh)
        } catch {
            logger.error("reload failed, keeping the running configuration", metadata: ["error": .string("\(error)")])
            return false
        }
        service.templates.replace(with: fresh.apps)
        let running = service.configuration
        if fresh.listen != running.listen || fresh.database != running.database
            || fresh.apps.map(\.appID) != running.apps.map(\.appID) || fresh.apps.map(\.apiToken) != running.apps.map(\.apiToken)
            || fresh.apps.map(\.webhookSecret) != running.apps.map(\.webhookSecret) {
            logger.warning("listen, database, the app list, api tokens and webhook secrets change only on restart")
        }
        logger.info("configuration reloaded", metadata: ["apps": .string(fresh.apps.map(\.appID).joined(separator: ","))])
        return true
    }
}

/// A continuation resumed by whichever of several racers comes first.
private final class FirstResume: Sendable {
    private let continuation = Mutex<CheckedContinuation<Bool, Never>?>(nil)

    func set(_ continuation: CheckedContinuation<Bool, Never>) {
        self.continuation.withLock { $0 = continuation }
    }

    func resume(returning value: Bool) {
        continuation.withLock { $0.take() }?.resume(returning: value)
    }
}
