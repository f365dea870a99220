import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import Prometheus
import PushEngine
import PushStore
import StoreContract
import ServiceLifecycle

/// The HTTP API's shared state: configuration, store, the apps and their templates and
/// secondary API tokens, and the routes built on them. `RelayApplication` assembles it with the
/// webhook, dispatcher and APNs clients; nothing else should.
public struct RelayAPI: Sendable {
    public let configuration: RelayConfiguration
    public let store: any RelayStore
    public let apps: AppRegistry
    /// The apps' configured templates as they are now: SIGHUP replaces them (`RelayApplication.reload`),
    /// while `configuration.apps[].templates` keeps those read at start. Read templates here.
    public let templates: ConfiguredTemplates
    /// The apps' `notifications` sections as they are now (SIGHUP replaces them too).
    public let notificationSettings: ConfiguredNotificationSettings
    /// The database's API tokens and session revocations as this relay knows them: loaded here,
    /// changed by this relay's routes and kept current with the fleet's (`CredentialDirectory`,
    /// which `RelayApplication` runs as a service).
    public let credentials: CredentialDirectory
    /// Each credential's request rate (`apps[].limits`).
    let rateLimits = CredentialRateLimiter()
    /// Each app's costly requests, a few at a time (`CostlyRequestSlots`).
    let costlySlots = CostlyRequestSlots()
    /// Each app's test pushes (`apps[].limits.test_pushes_per_minute`).
    let testPushLimits = TestPushRateLimiter()
    /// Users erased lately: the REST API adds them, the dispatcher drops what it holds for them.
    public let erasedUsers = ErasedUsers()
    /// `console.users` as they are now (SIGHUP replaces them): the console's sign-in and session
    /// checks, and `DELETE /v3/console/sessions`.
    let consoleUsers: ConsoleUsers
    public let logger: Logger
    /// Unix milliseconds; session token expiry.
    let clock: @Sendable () -> Int64

    /// - Throws: when the store cannot be read (the credentials are loaded here).
    public init(
        configuration: RelayConfiguration, store: any RelayStore, logger: Logger,
        clock: @escaping @Sendable () -> Int64 = WallClock.milliseconds
    ) async throws {
        self.configuration = configuration
        self.store = store
        self.apps = AppRegistry(apps: configuration.apps)
        self.templates = ConfiguredTemplates(apps: configuration.apps)
        notificationSettings = ConfiguredNotificationSettings(apps: configuration.apps)
        self.credentials = try await CredentialDirectory.load(
            store: store,
            maximumSessionLifetime: configuration.apps.map(\.limits.maxSessionLifetime).max() ?? AppLimits.defaultMaxSessionLifetime,
            logger: logger)
        consoleUsers = ConsoleUsers(configuration.console.users, keys: credentials.sessionTokens)
        self.logger = logger
        self.clock = clock
    }

    /// A router with Sendbird-style error bodies for everything routed through it, the REST API
    /// under `/v3` (authenticated by `Api-Token` or `Session-Token`), `GET /openapi.yaml`, the
    /// operator's `GET /health`, `/ready`, `/metrics` (public; `/metrics` optionally behind a
    /// token), when given, `POST /webhooks/sendbird` (authenticated by its signature) and, when
    /// given, `POST /v3/push/test` and the operator console under `/console`.
    func makeRouter(
        observability: ObservabilityRoutes, webhook: WebhookIntake?, testPush: TestPush? = nil, console: ConsoleRoutes? = nil,
        liveActivities: LiveActivities? = nil, notifications: Notifications? = nil
    ) -> Router<RelayRequestContext> {
        let router = Router(context: RelayRequestContext.self)
        router.add(middleware: SendbirdErrorMiddleware(bodyLimit: configuration.http.maxBodyBytes))
        router.get("openapi.yaml") { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "application/yaml; charset=utf-8"],
                body: ResponseBody(byteBuffer: OpenAPIDocument.body)
            )
        }
        observability.register(on: router)
        let v3 = router.group("v3").add(
            middleware: AuthenticationMiddleware(
                apps: apps, credentials: credentials, store: store, rateLimits: rateLimits, costlySlots: costlySlots, clock: clock))
        RESTAPI(
            store: store, templates: templates, credentials: credentials, erasedUsers: erasedUsers,
            bodyLimit: configuration.http.maxBodyBytes,
            clock: clock
        ).register(on: v3)
        DeliveryLogAPI(store: store, clock: clock, bodyLimit: configuration.http.maxBodyBytes).register(on: v3)
        ConsoleSessionsAPI(store: store, users: consoleUsers).register(on: v3)
        if let testPush {
            TestPushAPI(testPush: testPush, rateLimits: testPushLimits, bodyLimit: configuration.http.maxBodyBytes).register(on: v3)
        }
        if let liveActivities {
            LiveActivitiesAPI(activities: liveActivities, bodyLimit: configuration.http.maxBodyBytes).register(on: v3)
            BroadcastChannelsAPI(activities: liveActivities, bodyLimit: configuration.http.maxBodyBytes).register(on: v3)
        }
        if let notifications {
            NotificationsAPI(
                notifications: notifications, settings: notificationSettings, bodyLimit: configuration.http.maxBodyBytes
            ).register(on: v3)
        }
        TopicsAPI(store: store, clock: clock, bodyLimit: configuration.http.maxBodyBytes).register(on: v3)
        webhook?.register(on: router)
        console?.register(on: router)
        // Last, once every route is in: the 405 table is read from them.
        MethodNotAllowedMiddleware.add(to: router)
        return router
    }

    /// The operator console's routes, when `console.enabled`; its overview reads `overview`, its
    /// test-push page sends through `testPush`.
    func makeConsole(overview: ConsoleOverviewSource, testPush: TestPush?) -> ConsoleRoutes? {
        guard configuration.console.enabled else { return nil }
        return ConsoleRoutes(
            access: ConsoleAccess(apps: apps, credentials: credentials, users: consoleUsers),
            configuration: configuration.console, rateLimits: rateLimits, store: store, overview: overview, testPush: testPush,
            testPushLimits: testPushLimits, clock: clock, logger: logger)
    }

    /// The webhook intake for this service's apps, waking `dispatcher` after each commit.
    func makeWebhookIntake(
        targets: any DeliveryTargetProvider, dispatcher: Dispatcher?, storeReadiness: DatabaseReadiness? = nil,
        clock: @escaping @Sendable () -> Int64 = WallClock.milliseconds
    ) -> WebhookIntake {
        WebhookIntake(
            store: store, apps: apps, targets: targets, templates: templates,
            onCommit: { dispatcher?.wake() }, dispatcher: dispatcher, storeReadiness: storeReadiness,
            bodyLimit: max(configuration.http.maxBodyBytes, 1024 * 1024), clock: clock,
            logger: logger)
    }
}
