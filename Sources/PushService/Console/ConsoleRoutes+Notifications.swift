import Hummingbird
import StoreContract

/// `GET /console/notifications`: the app's recent notifications (`POST /v3/notifications`), and
/// with `?id=` one notification's counts, read as `GET /v3/notifications/{id}` reads them.
extension ConsoleRoutes {
    static let notificationsListed = 50

    func registerNotifications(on console: RouterGroup<RelayRequestContext>) {
        console.get("notifications") { request, context in
            let visit = try await self.visit(request, context)
            let app = visit.app.appID
            let recent = try await store.notifications(app: app, beforeID: nil, limit: Self.notificationsListed, openOnly: false)
            var page = NotificationsPage(
                chrome: visit.chrome("Notifications", current: "/console/notifications"), rows: recent.map(NotificationsPage.row),
                detail: nil)
            if let raw = request.uri.queryParameters["id"] {
                guard let id = Int64(String(raw)), let record = try await store.notification(app: app, id: id) else {
                    throw APIError(status: .notFound, code: .notFound, message: "No notification of this app has that id.")
                }
                page.detail = NotificationsPage.detail(record, counts: try await store.notificationCounts(app: app, id: id))
            }
            return ConsoleTemplates.response("notifications", page)
        }
    }
}
