import Hummingbird
import LogRedaction

/// `GET /console/user`: a user's profile, devices and preferences, from the store's APIs the REST
/// API uses, within the session's app.
extension ConsoleRoutes {
    /// Pushes read to find each device's last result.
    static let lastResultScan = 50

    func registerUser(on console: RouterGroup<RelayRequestContext>) {
        console.get("user") { request, context in
            let visit = try await self.visit(request, context)
            let query = try ConsoleQuery(request)
            var page = UserPage(
                chrome: visit.chrome("Devices", current: "/console/user"), userID: query.user ?? "", unknown: false, found: false)
            if let user = query.user { try await fill(&page, user: user, app: visit.app.appID) }
            return ConsoleTemplates.response("user", page)
        }
    }

    private func fill(_ page: inout UserPage, user: String, app: String) async throws {
        let tokens = try await store.tokens(app: app, user: user)
        let preferences = try await store.preferences(app: app, user: user)
        let profile = try await store.user(app: app, user: user)
        guard tokens != nil || preferences != nil || profile != nil else {
            page.unknown = true
            return
        }
        let recent = try await store.recentDeliveries(app: app, user: user, limit: Self.lastResultScan)
        let reading = PreferenceReading(preferences ?? .defaults, hasDevices: !(tokens ?? []).isEmpty, nowMs: clock())
        page.found = true
        page.nickname = profile.flatMap { $0.nickname.isEmpty ? nil : $0.nickname }
        page.devices = UserPage.devices(tokens ?? [], recent: recent)
        page.liveActivities = UserPage.liveActivities(try await store.activities(app: app, user: user))
        page.startTokens = try await store.startTokens(app: app, user: user).map {
            UserPage.LiveActivityRow(kind: $0.attributesType, token: Redaction.redact($0.token))
        }
        page.hasLiveActivities = !page.liveActivities.isEmpty || !page.startTokens.isEmpty
        page.preferences = reading.rows
        page.verdict = reading.verdict
        page.verdictTone = reading.verdictTone
        page.whyHref = ConsoleLink.why(user: user)
        if testPush != nil, !(tokens ?? []).isEmpty { page.testPushHref = ConsoleLink.testPush(user: user) }
    }
}
