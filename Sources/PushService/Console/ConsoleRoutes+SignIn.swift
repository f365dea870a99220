import HTTPTypes
import Hummingbird

/// `GET/POST /console/sign-in`, `POST /console/sign-out` and `POST /console/app` (a console
/// user's switch between their apps).
extension ConsoleRoutes {
    struct SignInPage {
        var chrome = ConsoleChrome.signedOut("Sign in")
        var csrf: String
        var error: String?
        var name: String
        var idleMinutes: Int
    }

    func registerSignIn(on console: RouterGroup<RelayRequestContext>) {
        console.get("sign-in") { request, context in
            if let cookie = request.cookies[ConsoleSessions.cookieName]?.value, try await sessions.session(cookie: cookie) != nil {
                throw ConsoleRedirect(location: "/console/overview")
            }
            return signInPage(client: client(request, context))
        }
        console.post("sign-in") { request, context in
            try await signIn(request, context)
        }
        console.post("sign-out") { request, context -> Response in
            let client = self.client(request, context)
            let cleared = ConsoleCookie.clear(ConsoleSessions.cookieName, secure: client.isHTTPS)
            guard let visit = try? await self.visit(request, context) else {
                throw ConsoleRedirect(location: "/console/sign-in", cookies: [cleared])
            }
            try visit.requireCSRF(try await ConsoleForm(request))
            try await sessions.end(cookie: visit.cookie)
            throw ConsoleRedirect(location: "/console/sign-in", cookies: [cleared])
        }
        console.post("app") { request, context -> Response in
            let visit = try await self.visit(request, context)
            let form = try await ConsoleForm(request)
            try visit.requireCSRF(form)
            guard let chosen = form["app_id"], visit.apps.contains(where: { $0.appID == chosen }) else {
                throw APIError(status: .forbidden, code: .notAccessible, message: "Not accessible: that app is not yours to open.")
            }
            try await sessions.switchApp(cookie: visit.cookie, to: chosen)
            throw ConsoleRedirect(location: "/console/overview")
        }
    }

    /// The sign-in form, with a fresh CSRF token in the form and in a cookie beside it.
    private func signInPage(client: ConsoleClient, error: String? = nil, name: String = "", status: HTTPResponse.Status = .ok)
        -> Response
    {
        let token = CredentialToken.generate()
        let page = SignInPage(
            csrf: token, error: error, name: name,
            idleMinutes: Int(configuration.sessionIdleTimeout.components.seconds / 60))
        var response = ConsoleTemplates.response("sign_in", page, status: status)
        response.headers.append(
            HTTPField(name: .setCookie, value: ConsoleCookie.header(ConsoleCSRF.signInCookieName, token, secure: client.isHTTPS)))
        return response
    }

    /// Checks the attempt's rate and CSRF token before the credential; a session on success.
    private func signIn(_ request: Request, _ context: RelayRequestContext) async throws -> Response {
        let client = self.client(request, context)
        let form = try await ConsoleForm(request)
        let name = String((form["name"] ?? "").prefix(64))
        let presented = request.cookies[ConsoleDeviceCookie.name].map { String($0.value) }
        let device = presented.flatMap { deviceCookies.isValid($0, for: name) ? $0 : nil }
        try signInLimits.admit(client: client.address, user: name, trustedDevice: name.isEmpty ? nil : device)
        guard
            ConsoleCSRF.matches(presented: form[ConsoleCSRF.fieldName], expected: request.cookies[ConsoleCSRF.signInCookieName]?.value)
        else {
            return signInPage(client: client, error: "The sign-in form had expired; try again.", name: name, status: .forbidden)
        }
        switch access.signIn(name: name, secret: form["secret"] ?? "") {
        case .signedIn(let identity, let app):
            let (cookie, _) = try await sessions.create(identity: identity, app: app)
            context.logger.info("console sign-in", metadata: ["app": .string(app), "with": .string(identity.label)])
            var cookies = [
                ConsoleCookie.header(ConsoleSessions.cookieName, cookie, secure: client.isHTTPS),
                ConsoleCookie.clear(ConsoleCSRF.signInCookieName, secure: client.isHTTPS),
            ]
            if case .user(let user, _) = identity {
                cookies.append(
                    ConsoleCookie.header(
                        ConsoleDeviceCookie.name, deviceCookies.issue(for: user), secure: client.isHTTPS,
                        maxAge: ConsoleDeviceCookie.maxAgeSeconds))
            }
            throw ConsoleRedirect(location: "/console/overview", cookies: cookies)
        case .refused:
            if let heldBack = refusalLog.admit("refused", nowMs: clock()) {
                context.logger.info(
                    "console sign-in refused", metadata: ["client": .string(client.address), "more_not_logged": "\(heldBack)"])
            }
            return signInPage(
                client: client, error: "Sign-in failed: that API token, or that name and password, is not right.", name: name,
                status: .unauthorized)
        case .unverifiable:
            throw APIError.credentialsUnverifiable
        }
    }
}
