import Hummingbird

/// `GET /console/why`: a user's recent pushes and skipped messages, or one message's decision and
/// pushes for them,
/// from the delivery log's store API (the REST API's `GET /v3/push/deliveries` reads the same).
extension ConsoleRoutes {
    /// Pushes, and skipped messages, listed for a user without a message id.
    static let recentLimit = 20

    func registerWhy(on console: RouterGroup<RelayRequestContext>) {
        console.get("why") { request, context in
            let visit = try await self.visit(request, context)
            let query = try ConsoleQuery(request)
            var page = WhyPage(
                chrome: visit.chrome("Why no push?", current: "/console/why"), userID: query.user ?? "",
                messageID: query.message.flatMap { $0 >= 0 ? String($0) : nil } ?? "", recent: nil, timeline: nil)
            if let user = query.user {
                if let message = query.message {
                    page.timeline = WhyPage.timeline(try await store.deliveryLog(app: visit.app.appID, messageID: message, user: user))
                } else {
                    let recent = try await store.recentDeliveries(app: visit.app.appID, user: user, limit: Self.recentLimit)
                    let skips = try await store.recentSkips(app: visit.app.appID, user: user, limit: Self.recentLimit)
                    page.recent = WhyPage.recent(user: user, deliveries: recent, skips: skips)
                }
            }
            return ConsoleTemplates.response("why", page)
        }
    }
}
