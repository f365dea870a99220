import Hummingbird
import PushStore
import StoreContract

/// `DELETE /v3/console/sessions` (a PushRelay extension, not a Sendbird call): an app's master API
/// token ends every console session signed in with the app's API tokens or showing the app, or,
/// with `?user=NAME`, every session of a console user allowed the app (wherever it is looking):
/// for a leaked password or a person who left, without editing the database. Every relay of a
/// fleet reads the sessions from the database, so they end everywhere at once.
struct ConsoleSessionsAPI: Sendable {
    let store: any RelayStore
    let users: ConsoleUsers

    func register(on v3: RouterGroup<RelayRequestContext>) {
        v3.delete("console/sessions") { request, context in
            let app = try context.requireMasterToken()
            let ended: Int
            if let raw = request.uri.queryParameters["user"] {
                let name = try RequestParameter.checked("user", String(raw))
                // A console user this app's token may end: one allowed the app.
                guard let user = users.current.first(where: { $0.name == name }), user.apps.map({ $0.contains(app.appID) }) ?? true
                else {
                    throw APIError.notFound("Console user")
                }
                ended = try await ConsoleSessionRemoval.end(user: user.name, app: nil, in: store)
                context.logger.notice("console sessions ended", metadata: ["user": .string(user.name), "count": "\(ended)"])
            } else {
                ended = try await ConsoleSessionRemoval.end(user: nil, app: app.appID, in: store)
                context.logger.notice("console sessions of the app ended", metadata: ["count": "\(ended)"])
            }
            return ConsoleSessionsEnded(ended: ended)
        }
    }
}

/// `{"ended": N}`: how many sessions ended.
struct ConsoleSessionsEnded: ResponseEncodable {
    var ended: Int
}
