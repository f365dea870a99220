import Hummingbird
import Logging
import PushStore
import StoreContract

/// The operator console at `/console`: server-rendered pages behind a sign-in (an app's API
/// token or a `console.users` entry), each scoped to the one app the session shows. See
/// docs/console.md. Registered only when `console.enabled`.
struct ConsoleRoutes: Sendable {
    let access: ConsoleAccess
    let sessions: ConsoleSessions
    let configuration: ConsoleConfiguration
    let signInLimits = ConsoleSignInLimiter()
    /// Browsers a console user signed in from (`ConsoleDeviceCookie`).
    let deviceCookies: ConsoleDeviceCookie
    /// One line per interval for refused sign-ins, however many there are.
    let refusalLog = LogThrottle(interval: .seconds(10))
    /// The REST API's per-credential rates: a console session spends its credential's.
    let rateLimits: CredentialRateLimiter
    let store: any RelayStore
    let overview: ConsoleOverviewSource
    /// The test push behind `POST /v3/push/test`, and the app's share of them; nil: no test-push page.
    let testPush: TestPush?
    let testPushLimits: TestPushRateLimiter
    /// Unix milliseconds: "now" for the pages' times, snooze and do-not-disturb.
    let clock: @Sendable () -> Int64
    let logger: Logger
    private let trustedProxies: Set<String>

    init(
        access: ConsoleAccess, configuration: ConsoleConfiguration, rateLimits: CredentialRateLimiter, store: any RelayStore,
        overview: ConsoleOverviewSource, testPush: TestPush?, testPushLimits: TestPushRateLimiter,
        clock: @escaping @Sendable () -> Int64, logger: Logger
    ) {
        self.access = access
        self.sessions = ConsoleSessions(
            store: store, rules: ConsoleSessionRules(idleTimeout: configuration.sessionIdleTimeout),
            cookies: access.credentials.sessionTokens.derived(for: "console_session"), nowMs: clock)
        self.deviceCookies = ConsoleDeviceCookie(keys: access.credentials.sessionTokens)
        self.configuration = configuration
        self.rateLimits = rateLimits
        self.store = store
        self.overview = overview
        self.testPush = testPush
        self.testPushLimits = testPushLimits
        self.clock = clock
        self.logger = logger
        trustedProxies = Set(configuration.trustedProxies)
    }

    func register(on router: Router<RelayRequestContext>) {
        router.get("console") { _, _ -> Response in
            var response = Response(status: .seeOther, headers: [.location: "/console/overview"])
            ConsoleMiddleware.secure(&response.headers)
            return response
        }
        let console = router.group("console").add(middleware: ConsoleMiddleware())
        console.get("console.css") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/css; charset=utf-8"],
                body: ResponseBody(byteBuffer: ConsoleTemplates.styleSheet))
        }
        registerSignIn(on: console)
        registerOverview(on: console)
        registerWhy(on: console)
        registerUser(on: console)
        registerNotifications(on: console)
        if let testPush { registerTestPush(on: console, testPush: testPush) }
    }

    func client(_ request: Request, _ context: RelayRequestContext) -> ConsoleClient {
        ConsoleClient(peer: context.remoteIP, headers: request.headers, trustedProxies: trustedProxies)
    }

    /// The signed-in browser behind `request`, checked (`ConsoleVisit`); otherwise a redirect to
    /// sign in (a session that ended, a credential revoked since) or 503 (the fleet's credentials
    /// cannot be confirmed now).
    func visit(_ request: Request, _ context: RelayRequestContext) async throws -> ConsoleVisit {
        let client = self.client(request, context)
        guard let cookie = request.cookies[ConsoleSessions.cookieName]?.value, let session = try await sessions.session(cookie: cookie)
        else {
            throw ConsoleRedirect.signIn
        }
        switch access.check(session.identity, app: session.app) {
        case .valid: break
        case .revoked:
            try await sessions.end(cookie: cookie)
            throw ConsoleRedirect(
                location: ConsoleRedirect.signIn.location,
                cookies: [ConsoleCookie.clear(ConsoleSessions.cookieName, secure: client.isHTTPS)])
        case .unverifiable:
            throw APIError.credentialsUnverifiable
        }
        guard let app = access.apps.app(withID: session.app) else { throw ConsoleRedirect.signIn }
        try rateLimits.admitServer(app: app, cost: RequestCost.units(method: request.method, path: request.uri.path[...]))
        return ConsoleVisit(
            cookie: cookie, session: session, app: app, apps: access.apps(for: session.identity), client: client,
            seesRelay: access.seesRelay(session.identity), pages: ConsoleChrome.pages(testPush: testPush != nil))
    }
}
