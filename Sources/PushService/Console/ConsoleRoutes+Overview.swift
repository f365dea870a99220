import Hummingbird

/// `GET /console/overview`: the app's figures, its providers' credentials and, for those who
/// may see it, the relay's.
extension ConsoleRoutes {
    func registerOverview(on console: RouterGroup<RelayRequestContext>) {
        console.get("overview") { request, context in
            let visit = try await self.visit(request, context)
            let (figures, since) = await overview.figures(app: visit.app.appID)
            let page = OverviewPage(
                chrome: visit.chrome("Overview", current: "/console/overview"), app: visit.app, figures: figures, sinceMs: since,
                nowMs: clock(), showsRelay: visit.seesRelay)
            return ConsoleTemplates.response("overview", page)
        }
    }
}
