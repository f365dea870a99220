import Hummingbird
import PushCore

/// `GET /console/test-push` (a user's devices) and `POST /console/test-push` (one test push to
/// the device picked, through `TestPush`, the type behind `POST /v3/push/test` and
/// `push-relay test-push`, within the app's `test_pushes_per_minute`).
extension ConsoleRoutes {
    func registerTestPush(on console: RouterGroup<RelayRequestContext>, testPush: TestPush) {
        console.get("test-push") { request, context in
            let visit = try await self.visit(request, context)
            let query = try ConsoleQuery(request)
            var page = TestPushPage(
                chrome: visit.chrome("Test push", current: "/console/test-push"), perMinute: visit.app.limits.testPushesPerMinute,
                userID: query.user ?? "")
            if let user = query.user { try await listDevices(&page, user: user, app: visit.app.appID, chosen: nil) }
            return ConsoleTemplates.response("test_push", page)
        }
        console.post("test-push") { request, context in
            let visit = try await self.visit(request, context)
            let form = try await ConsoleForm(request)
            try visit.requireCSRF(form)
            let user = try RequestParameter.checked("user_id", form["user_id"] ?? "")
            var page = TestPushPage(
                chrome: visit.chrome("Test push", current: "/console/test-push"), perMinute: visit.app.limits.testPushesPerMinute,
                userID: user)
            let chosen = try await listDevices(&page, user: user, app: visit.app.appID, chosen: form["device"])
            guard let device = chosen else {
                throw APIError(status: .notFound, code: .notFound, message: "That device is not one of this user's in this app.")
            }
            let test = try TestPushRequest(
                user: nil, tokenType: device.provider.rawValue, deviceToken: device.token, message: form["message"],
                title: form["title"].flatMap { $0.isEmpty ? nil : $0 })
            try testPushLimits.admit(visit.app)
            let report = try await testPush.send(test, app: visit.app.appID)
            (page.title, page.message) = (test.title ?? "", test.message)
            (page.sent, page.sentTitle, page.sentMessage) = (true, test.title ?? "—", test.message)
            page.results = report.results.map(TestPushPage.result)
            page.whyHref = ConsoleLink.why(user: user)
            return ConsoleTemplates.response("test_push", page)
        }
    }

    /// Fills the page with the user's devices; returns the one whose key is `chosen`.
    @discardableResult
    private func listDevices(_ page: inout TestPushPage, user: String, app: String, chosen: String?) async throws -> DeviceToken? {
        let tokens = try await store.tokens(app: app, user: user) ?? []
        page.unknown = tokens.isEmpty
        page.hasDevices = !tokens.isEmpty
        page.devices = TestPushPage.devices(tokens, chosen: chosen)
        return chosen.flatMap { key in tokens.first { TestPushPage.key(for: $0) == key } }
    }
}
