import ConfigSupport
import Foundation
import HTTPTypes
import PushCore
import PushStore
import StoreContract
import Testing
@testable import PushService

/// The console on the relay's real HTTP server (loopback) and a real SQLite file: sign-in,
/// sessions, CSRF, scoping to one app, escaping and the security headers.
@Suite(.timeLimit(.minutes(5))) struct ConsoleRoutesTests {
    static let on = ConsoleConfiguration(
        enabled: true,
        users: [
            .init(name: "ops", secret: Secret("ops-secret-0123456789")),
            .init(name: "support-b", secret: Secret("support-secret-0123456789"), apps: [TestApps.b.appID]),
        ])

    @Test func theConsoleIsOffUnlessConfigured() async throws {
        try await LiveRelay.run { relay async throws in
            #expect(try await relay.request(.get, "/console/sign-in", app: nil).status == .notFound)
        }
    }

    @Test func signingInWithTheMasterTokenOpensASessionCookieOfItsApp() async throws {
        try await LiveRelay.run(console: Self.on) { relay async throws in
            let browser = ConsoleBrowser(relay)
            #expect(try await browser.get("/console/overview").location == "/console/sign-in")
            let form = try await browser.get("/console/sign-in")
            #expect(form.status == .ok)
            #expect(form.headers[.contentSecurityPolicy] == ConsoleMiddleware.contentSecurityPolicy)
            #expect(form.headers[.xContentTypeOptions] == "nosniff")
            #expect(form.headers[.referrerPolicy] == "no-referrer")
            let signedIn = try await browser.post("/console/sign-in", [("secret", TestApps.a.apiToken.value), ("name", "")])
            #expect(signedIn.status == .seeOther)
            #expect(signedIn.location == "/console/overview")
            let cookie = try #require(signedIn.setCookies.first { $0.hasPrefix(ConsoleSessions.cookieName + "=") })
            #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict") && cookie.contains("Path=/console"))
            #expect(!cookie.contains("Secure"), "plain HTTP, no proxy: the browser would drop a Secure cookie")
            let overview = try await browser.get("/console/overview")
            #expect(overview.status == .ok)
            #expect(overview.text.contains(#"<code id="current-app">app-A</code>"#))
            #expect(overview.headers[.cacheControl] == "no-store")
        }
    }

    @Test func aBadCredentialOrAMissingCSRFTokenOpensNothing() async throws {
        try await LiveRelay.run(console: Self.on) { relay async throws in
            let browser = ConsoleBrowser(relay)
            #expect(try await browser.signIn("not-a-token-0123456789").status == .unauthorized)
            #expect(try await browser.signIn("ops-secret-0123456789", name: "nobody").status == .unauthorized)
            #expect(try await browser.signIn("ops-secret-0123456789x", name: "ops").status == .unauthorized)
            try await browser.get("/console/sign-in")
            let forged = try await browser.post(
                "/console/sign-in", [("secret", TestApps.a.apiToken.value)], csrf: "0" + String(repeating: "a", count: 63))
            #expect(forged.status == .forbidden)
            #expect(browser.cookies[ConsoleSessions.cookieName] == nil)
        }
    }

    /// A flood of sign-ins meets 429 with Retry-After, whether its credential is right or wrong:
    /// the limit comes before any credential is looked at. (The limiter's arithmetic, on a clock
    /// of its own: `ConsoleSignInLimiterTests`.) The attempts are bounded, not timed: the bucket
    /// refills one every two seconds, and no machine is slow enough to match that.
    @Test func signInAttemptsAreLimitedPerClient() async throws {
        try await LiveRelay.run(console: Self.on) { relay async throws in
            let browser = ConsoleBrowser(relay)
            func floodUntilRefused(_ secret: String) async throws -> (statuses: Set<HTTPResponse.Status>, refusal: ConsoleBrowser.Answer?) {
                var statuses: Set<HTTPResponse.Status> = []
                for _ in 0..<(ConsoleSignInLimiter.burst * 5) {
                    let answer = try await browser.signIn(secret)
                    if answer.status == .tooManyRequests { return (statuses, answer) }
                    statuses.insert(answer.status)
                }
                return (statuses, nil)
            }
            let wrong = try await floodUntilRefused("wrong-wrong-wrong-wrong")
            #expect(wrong.statuses == [.unauthorized])
            #expect(wrong.refusal?.headers[.retryAfter] != nil)
            let right = try await floodUntilRefused(TestApps.a.apiToken.value)
            #expect(right.refusal != nil, "the right credential is held to the same limit")
        }
    }

    @Test func anAppsTokenSeesNothingOfAnotherApp() async throws {
        try await LiveRelay.run(console: Self.on) { relay async throws in
            let now = WallClock.milliseconds()
            _ = try await relay.store.registerToken(app: TestApps.a.appID, user: "alice", token: apnsToken(1), isUnique: false)
            #expect(
                try await relay.store.acceptEvent(
                    AcceptedEvent(
                        appID: TestApps.a.appID, messageID: 5, channelURL: "c1", acceptedAtMs: now,
                        decisions: [RecipientDecisionRecord(userID: "alice", decision: .skip(.doNotDisturb))], deliveries: [])))
            let a = ConsoleBrowser(relay)
            try await a.signIn(TestApps.a.apiToken.value)
            #expect(try await a.get("/console/why?user_id=alice&message_id=5").text.contains("do_not_disturb"))
            // Without a message id: the user's skipped messages, each linked to its timeline.
            let recent = try await a.get("/console/why?user_id=alice").text
            #expect(recent.contains(#"<a href="/console/why?user_id=alice&amp;message_id=5">5</a>"#), "\(recent)")
            #expect(recent.contains("do_not_disturb"))
            #expect(try await a.get("/console/user?user_id=alice").text.contains(String(apnsToken(1).prefix(4)) + "…"))

            let b = ConsoleBrowser(relay)
            try await b.signIn(TestApps.b.apiToken.value)
            let why = try await b.get("/console/why?user_id=alice&message_id=5")
            #expect(why.status == .ok)
            #expect(!why.text.contains("do_not_disturb"))
            #expect(why.text.contains("no record"))
            #expect(!(try await b.get("/console/why?user_id=alice").text.contains("do_not_disturb")))
            let user = try await b.get("/console/user?user_id=alice")
            #expect(user.text.contains(#"id="unknown-user""#))
            #expect(!user.text.contains(String(apnsToken(1).prefix(4)) + "…"))
            // A switch to app A is refused: an API token opens its own app only.
            #expect(try await b.post("/console/app", [("app_id", TestApps.a.appID)]).status == .forbidden)
            #expect(try await b.get("/console/overview").text.contains(#"<code id="current-app">app-B</code>"#))
        }
    }

    /// A test push is no message: listed as a test push, and its timeline (message id 0) says
    /// that no policy decided it, instead of "the policy decided to push".
    @Test func aTestPushIsShownAsOne() async throws {
        try await LiveRelay.run(console: Self.on) { relay async throws in
            let now = WallClock.milliseconds()
            let push = NewDelivery(
                userID: "alice", deviceToken: apnsToken(1), payload: Data("{}".utf8), pushID: UUID(), provider: .apns, pushType: "alert",
                priority: 10,
                expiresAtMs: now + 600_000)
            _ = try await relay.store.recordTestDelivery(
                TestDelivery(
                    appID: TestApps.a.appID, delivery: push, createdAtMs: now, state: .sent, atMs: now,
                    attempt: DeliveryAttempt(atMs: now, status: 200, reason: nil, error: nil, pushID: push.pushID)))
            let browser = ConsoleBrowser(relay)
            try await browser.signIn(TestApps.a.apiToken.value)
            let recent = try await browser.get("/console/why?user_id=alice").text
            #expect(recent.contains(#"<a href="/console/why?user_id=alice&amp;message_id=0">test push</a>"#), "\(recent)")
            let timeline = try await browser.get("/console/why?user_id=alice&message_id=0").text
            #expect(timeline.contains(#"id="decision-code">no message</strong>"#), "\(timeline)")
            #expect(timeline.contains("Message id 0 is no message"))
            #expect(!timeline.contains("The policy decided to push"))
            #expect(timeline.contains("<h2>APNs test push to <span"), "\(timeline)")
        }
    }

    @Test func aConsoleUserSwitchesOnlyBetweenTheirApps() async throws {
        try await LiveRelay.run(console: Self.on) { relay async throws in
            let support = ConsoleBrowser(relay)
            #expect(try await support.signIn("support-secret-0123456789", name: "support-b").location == "/console/overview")
            #expect(try await support.get("/console/overview").text.contains("app-B"))
            #expect(try await support.post("/console/app", [("app_id", TestApps.a.appID)]).status == .forbidden)

            let ops = ConsoleBrowser(relay)
            try await ops.signIn("ops-secret-0123456789", name: "ops")
            let first = try await ops.get("/console/overview")
            #expect(first.text.contains(#"<option value="app-A" selected>"#))
            #expect(first.text.contains(#"id="relay-figures""#), "an operator of every app sees the relay's figures")
            #expect(try await ops.post("/console/app", [("app_id", TestApps.b.appID)]).location == "/console/overview")
            #expect(try await ops.get("/console/overview").text.contains(#"<option value="app-B" selected>"#))
            let supportPage = try await support.get("/console/overview")
            #expect(!supportPage.text.contains(#"id="relay-figures""#))
        }
    }

    @Test func aRevokedSecondaryTokenEndsItsSessions() async throws {
        try await LiveRelay.run(console: Self.on) { relay async throws in
            let created = try await relay.request(.post, "/v3/applications/api_tokens", body: "{}")
            guard case .string(let token)? = created.body["token"] else { throw TestFailure("no token: \(created.text)") }
            let browser = ConsoleBrowser(relay)
            #expect(try await browser.signIn(token).location == "/console/overview")
            #expect(try await browser.get("/console/overview").status == .ok)
            #expect(try await relay.request(.delete, "/v3/applications/api_tokens/\(token)").status == .ok)
            let after = try await browser.get("/console/overview")
            #expect(after.status == .seeOther)
            #expect(after.location == "/console/sign-in")
            #expect(browser.cookies[ConsoleSessions.cookieName] == nil, "the cookie is cleared too")
        }
    }

    @Test func signingOutNeedsTheSessionsCSRFTokenAndEndsTheSession() async throws {
        try await LiveRelay.run(console: Self.on) { relay async throws in
            let browser = ConsoleBrowser(relay)
            try await browser.signIn(TestApps.a.apiToken.value)
            try await browser.get("/console/overview")
            let cookie = try #require(browser.cookies[ConsoleSessions.cookieName])
            #expect(try await browser.post("/console/sign-out", [], csrf: String(repeating: "0", count: 64)).status == .forbidden)
            #expect(try await browser.get("/console/overview").status == .ok)
            #expect(try await browser.post("/console/sign-out", []).location == "/console/sign-in")
            browser.cookies[ConsoleSessions.cookieName] = cookie
            #expect(try await browser.get("/console/overview").location == "/console/sign-in", "the old cookie opens nothing")
        }
    }

    @Test func behindATrustedProxyServingHTTPSTheCookieIsSecure() async throws {
        try await LiveRelay.run(console: Self.on) { relay async throws in
            let browser = ConsoleBrowser(relay)
            browser.extraHeaders[.forwardedProto] = "https"
            let signedIn = try await browser.signIn(TestApps.a.apiToken.value)
            let cookie = try #require(signedIn.setCookies.first { $0.hasPrefix(ConsoleSessions.cookieName + "=") })
            #expect(cookie.contains("; Secure"))
        }
        var untrusted = Self.on
        untrusted.trustedProxies = ["192.0.2.1"]
        try await LiveRelay.run(console: untrusted) { relay async throws in
            let browser = ConsoleBrowser(relay)
            browser.extraHeaders[.forwardedProto] = "https"
            let signedIn = try await browser.signIn(TestApps.a.apiToken.value)
            #expect(signedIn.setCookies.allSatisfy { !$0.contains("Secure") }, "a peer that is not a trusted proxy is not believed")
        }
    }

    @Test func whatUsersTypedIsShownAsText() async throws {
        try await LiveRelay.run(console: Self.on) { relay async throws in
            let hostile = #"<script>alert(1)</script>"><img src=x onerror=alert(2)>"#
            _ = try await relay.store.registerToken(app: TestApps.a.appID, user: hostile, token: apnsToken(2), isUnique: false)
            _ = try await relay.store.createUser(app: TestApps.a.appID, user: hostile, nickname: hostile, profileURL: "")
            let browser = ConsoleBrowser(relay)
            try await browser.signIn(TestApps.a.apiToken.value)
            let page = try await browser.get("/console/user?user_id=\(ConsoleLink.encoded(hostile))")
            #expect(page.status == .ok)
            #expect(!page.text.contains("<script>alert"))
            #expect(!page.text.contains("<img src=x"))
            #expect(page.text.contains("&lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;&lt;img src=x onerror=alert(2)&gt;"))
            // As a browser's form writes the query: spaces as "+".
            let formQuery = ConsoleLink.encoded(hostile).replacingOccurrences(of: "%20", with: "+")
            let viaForm = try await browser.get("/console/user?user_id=\(formQuery)")
            #expect(viaForm.text == page.text, "the same user, the same page")
            let sign = try await browser.signIn("x", name: hostile)
            #expect(!sign.text.contains("<script>alert"))
        }
    }

    /// A token of a named APNs configuration (a debug build's) shows it beside the provider.
    @Test func aDevicesConfigurationIsShown() async throws {
        try await LiveRelay.run(console: Self.on) { relay async throws in
            _ = try await relay.store.registerToken(
                app: TestApps.a.appID, user: "alice", token: apnsToken(1), isUnique: false, provider: .apns, movesFromOtherUsers: true,
                configuration: "debug")
            _ = try await relay.store.registerToken(app: TestApps.a.appID, user: "alice", token: apnsToken(2), isUnique: false)
            let browser = ConsoleBrowser(relay)
            try await browser.signIn(TestApps.a.apiToken.value)
            let page = try await browser.get("/console/user?user_id=alice").text
            #expect(page.contains("<td>APNs (debug)</td>"), "\(page)")
            #expect(page.contains("<td>APNs</td>"))
        }
    }

    /// A user's Live Activities and push-to-start tokens, tokens redacted, ids escaped.
    @Test func aUsersLiveActivitiesAreShown() async throws {
        try await LiveRelay.run(console: Self.on) { relay async throws in
            let app = TestApps.a.appID
            try await relay.store.registerStartToken(app: app, user: "alice", attributesType: "Delivery", token: apnsToken(7), nowMs: 1)
            _ = try await relay.store.registerActivityToken(
                app: app, user: "alice", activityID: "<order>", token: apnsToken(8), nowMs: 2)
            let browser = ConsoleBrowser(relay)
            try await browser.signIn(TestApps.a.apiToken.value)
            let page = try await browser.get("/console/user?user_id=alice").text
            #expect(page.contains(#"id="live-activities""#), "\(page)")
            #expect(page.contains("<code>&lt;order&gt;</code>") && !page.contains("<order>"))
            #expect(page.contains("Delivery") && page.contains(String(apnsToken(7).prefix(4)) + "…"))
            #expect(!page.contains(apnsToken(7)) && !page.contains(apnsToken(8)))
            let none = try await browser.get("/console/user?user_id=bob").text
            #expect(!none.contains(#"id="live-activities""#))
        }
    }

    @Test func formBodiesAreBoundedAndIdsCheckedLikeTheAPIs() async throws {
        try await LiveRelay.run(console: Self.on) { relay async throws in
            let browser = ConsoleBrowser(relay)
            try await browser.signIn(TestApps.a.apiToken.value)
            try await browser.get("/console/overview")
            let large = try await browser.post("/console/app", [("app_id", String(repeating: "x", count: ConsoleForm.limit))])
            #expect(large.status == .contentTooLarge)
            #expect(large.headers[.contentType]?.hasPrefix("text/html") == true)
            #expect(try await browser.get("/console/why?user_id=a%00b").status == .badRequest)
            #expect(try await browser.get("/console/why?user_id=bob&message_id=x").status == .badRequest)
        }
    }

    /// Someone guessing ops' password from other addresses uses up the name's sign-ins; ops, in the
    /// browser they signed in from before (its device cookie), still signs in, and a browser
    /// without one does not. Addresses come from X-Forwarded-For (loopback is a trusted proxy).
    @Test func guessesFromElsewhereDoNotLockAUserOutOfTheirOwnBrowser() async throws {
        try await LiveRelay.run(console: Self.on) { relay async throws in
            let ops = ConsoleBrowser(relay)
            ops.extraHeaders[HTTPField.Name("X-Forwarded-For")!] = "198.51.100.4"
            #expect(try await ops.signIn("ops-secret-0123456789", name: "ops").location == "/console/overview")
            let device = try #require(ops.cookies[ConsoleDeviceCookie.name])
            // Guesses from ever new addresses until the name's sign-ins are used up (again before
            // each check: they come back one every 2 s, which a slow machine can take between steps).
            func exhaust(_ round: Int) async throws -> Bool {
                for attempt in 0..<(ConsoleSignInLimiter.burst * 5) {
                    let attacker = ConsoleBrowser(relay)
                    attacker.extraHeaders[HTTPField.Name("X-Forwarded-For")!] = "203.\(round).113.\(attempt)"
                    if try await attacker.signIn("a-guess-\(attempt)-0123456789", name: "ops").status == .tooManyRequests { return true }
                }
                return false
            }
            // Whether ops' password from a browser without a valid device cookie meets the name's
            // exhausted limit. (A sign-in can come back between the last guess and this one: tried a
            // few times, such a browser must be limited at least once; a trusted one never would be.)
            func limitedWithout(cookie: String?, address: Int) async throws -> Bool {
                for round in 0..<5 {
                    #expect(try await exhaust(round), "guesses at one name are limited")
                    let browser = ConsoleBrowser(relay)
                    browser.extraHeaders[HTTPField.Name("X-Forwarded-For")!] = "198.51.\(100 + round).\(address)"
                    if let cookie { browser.cookies[ConsoleDeviceCookie.name] = cookie }
                    if try await browser.signIn("ops-secret-0123456789", name: "ops").status == .tooManyRequests { return true }
                }
                return false
            }
            #expect(try await limitedWithout(cookie: nil, address: 5))
            let again = ConsoleBrowser(relay)
            again.extraHeaders[HTTPField.Name("X-Forwarded-For")!] = "198.51.100.4"
            again.cookies[ConsoleDeviceCookie.name] = device
            #expect(try await again.signIn("ops-secret-0123456789", name: "ops").location == "/console/overview")
            // A device cookie is for its user only, and cannot be made up.
            #expect(try await limitedWithout(cookie: String(repeating: "0", count: 96), address: 6))
        }
    }

    /// The app's master token ends the console's sessions of the app, or a console user's
    /// (`?user=`), over the API; a session token or secondary token may not, and another app's
    /// user is not this app's to end.
    @Test func theMasterTokenEndsConsoleSessionsOverTheAPI() async throws {
        try await LiveRelay.run(console: Self.on) { relay async throws in
            let token = ConsoleBrowser(relay)
            try await token.signIn(TestApps.a.apiToken.value)
            let ops = ConsoleBrowser(relay)
            try await ops.signIn("ops-secret-0123456789", name: "ops")
            let support = ConsoleBrowser(relay)
            try await support.signIn("support-secret-0123456789", name: "support-b")
            let notHers = try await relay.request(.delete, "/v3/console/sessions?user=support-b")
            #expect(notHers.status == .badRequest, "support-b is not allowed app A: \(notHers.text)")
            let ended = try await relay.request(.delete, "/v3/console/sessions?user=ops")
            #expect(ended.status == .ok)
            #expect(ended.body["ended"] == .int(1))
            #expect(try await ops.get("/console/overview").location == "/console/sign-in")
            #expect(try await token.get("/console/overview").status == .ok)
            let app = try await relay.request(.delete, "/v3/console/sessions")
            #expect(app.body["ended"] == .int(1))
            #expect(try await token.get("/console/overview").location == "/console/sign-in")
            #expect(try await support.get("/console/overview").status == .ok, "another app's session stays")
            let created = try await relay.request(.post, "/v3/applications/api_tokens", body: "{}")
            guard case .string(let secondary)? = created.body["token"] else { throw TestFailure("no token: \(created.text)") }
            let bySecondary = try await relay.request(.delete, "/v3/console/sessions", apiToken: secondary)
            #expect(bySecondary.status == .forbidden)
        }
    }
}
