import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import Prometheus
import PushStore
import ServiceLifecycle

/// The running relay: configuration, store and the HTTP application built from them.
///
/// ```swift
/// let service = try RelayService.open(configuration: config, logger: logger)
/// let router = service.makeRouter()          // REST API + GET /openapi.yaml
/// router.post("webhooks/sendbird") { … }     // more routes before building the app
/// let app = service.makeApplication(router: router, services: [dispatcher])
/// try await app.runService()                 // until SIGTERM / SIGINT
/// ```
public struct RelayService: Sendable {
    public let configuration: RelayConfiguration
    public let store: PushStore
    public let apps: AppRegistry
    /// The apps' configured templates as they are now: SIGHUP replaces them (`RelayDaemon.reload`),
    /// while `configuration.apps[].templates` keeps those read at start. Read templates here.
    public let templates: ConfiguredTemplates
    /// The apps' secondary API tokens (digests), read from the store here and kept current by
    /// the `/v3/applications/api_tokens` routes.
    public let secondaryAPITokens: SecondaryAPITokens
    public let logger: Logger
    /// Unix milliseconds; session token expiry.
    let clock: @Sendable () -> Int64

    /// - Throws: when the store cannot be read (the secondary API tokens are loaded here).
    public init(configuration: RelayConfiguration, store: PushStore, logger: Logger,
                clock: @escaping @Sendable () -> Int64 = PushStore.systemClockMilliseconds) throws {
        self.configuration = configuration
        self.store = store
        self.apps = AppRegistry(apps: configuration.apps)
        self.templates = ConfiguredTemplates(apps: configuration.apps)
        self.secondaryAPITokens = SecondaryAPITokens(try store.allAPITokens())
        self.logger = logger
        self.clock = clock
    }

    /// Opens the database named by the configuration (creating and migrating it).
    public static func open(configuration: RelayConfiguration, logger: Logger) throws -> RelayService {
        let store = try PushStore(path: configuration.database.path)
        return try RelayService(configuration: configuration, store: store, logger: logger)
    }

    /// A router with Sendbird-style error bodies for everything routed through it, the REST API
    /// under `/v3` (authenticated by `Api-Token` or `Session-Token`), `GET /openapi.yaml` and the operator's
    /// `GET /health`, `/ready`, `/metrics` (public; `/metrics` optionally behind a token).
    /// Routes added to it afterwards also get the error middleware, not the authentication.
    /// - Parameters:
    ///   - observability: the health and metrics routes; by default without APNs state and with
    ///     a private metrics registry.
    ///   - webhook: when given, `POST /webhooks/sendbird` (authenticated by its signature).
    public func makeRouter(observability: ObservabilityRoutes? = nil, webhook: WebhookIntake? = nil)
        -> Router<RelayRequestContext>
    {
        let router = Router(context: RelayRequestContext.self)
        router.add(middleware: SendbirdErrorMiddleware(bodyLimit: configuration.http.maxBodyBytes))
        router.get("openapi.yaml") { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "application/yaml; charset=utf-8"],
                body: ResponseBody(byteBuffer: OpenAPIDocument.body)
            )
        }
        (observability ?? ObservabilityRoutes(
            database: DatabaseProbe(path: store.path), runtime: nil, registry: PrometheusCollectorRegistry(),
            metricsToken: configuration.metrics.token)).register(on: router)
        let v3 = router.group("v3").add(middleware: AuthenticationMiddleware(
            apps: apps, secondaryAPITokens: secondaryAPITokens, store: store, clock: clock))
        RESTAPI(store: store, templates: templates, secondaryAPITokens: secondaryAPITokens, bodyLimit: configuration.http.maxBodyBytes,
                clock: clock).register(on: v3)
        DeliveryLogAPI(store: store).register(on: v3)
        webhook?.register(on: router)
        return router
    }

    /// The webhook intake for this service's apps, waking `dispatcher` after each commit.
    public func makeWebhookIntake(targets: any DeliveryTargetProvider, dispatcher: Dispatcher?,
                                  clock: @escaping @Sendable () -> Int64 = PushStore.systemClockMilliseconds) -> WebhookIntake {
        WebhookIntake(store: store, apps: apps, targets: targets, templates: templates,
                      onCommit: { dispatcher?.wake() }, dispatcher: dispatcher,
                      bodyLimit: max(configuration.http.maxBodyBytes, 1024 * 1024), clock: clock,
                      logger: logger)
    }

    /// HTTP/1.1 limits: a client that sends nothing for a minute is disconnected (an idle or
    /// stalled connection must not hold a descriptor forever), and headers are bounded well
    /// below NIO's defaults (Sendbird's webhook and the REST API send a handful of short ones);
    /// beyond them the parser answers 431/400 and closes the connection.
    /// Open connections are capped by `gate` (`http.max_connections`; see `ConnectionLimiter`).
    static func http1(connections gate: ConnectionGate) -> HTTP1Channel.Configuration {
        HTTP1Channel.Configuration(
            additionalChannelHandlers: [ConnectionLimitHandler(gate: gate)],
            idleTimeout: .seconds(60),
            httpDecoderConfiguration: .init(maxHeaderFieldSize: 16 * 1024, maxHeaderListSize: 64 * 1024, maxHeaderFieldCount: 100))
    }

    /// The HTTP application on `configuration.listen`, running `services` (e.g. the dispatcher)
    /// alongside the server. `onListening` gets the bound port once the server accepts
    /// connections (the real one when the configured port is 0).
    public func makeApplication(
        router: Router<RelayRequestContext>? = nil,
        services: [any Service] = [],
        onListening: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> Application<RouterResponder<RelayRequestContext>> {
        let logger = self.logger
        let connections = ConnectionGate(maximum: configuration.http.maxConnections, logger: logger)
        let router = router ?? makeRouter()
        // Last, once every route is in: the 405 table is read from them.
        MethodNotAllowedMiddleware.add(to: router)
        return Application(
            router: router,
            server: .http1(configuration: Self.http1(connections: connections)),
            configuration: ApplicationConfiguration(
                address: .hostname(configuration.listen.host, port: configuration.listen.port),
                serverName: "push-relay",
                availableConnectionsDelegate: connections.acceptLimit
            ),
            services: services,
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                logger.info("listening", metadata: ["host": .string(channel.localAddress?.ipAddress ?? "?"), "port": .stringConvertible(port)])
                await onListening(port)
            },
            logger: logger
        )
    }
}
