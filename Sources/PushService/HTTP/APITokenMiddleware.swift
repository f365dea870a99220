import HTTPTypes
import Hummingbird

/// Authenticates a request by its `Api-Token` header (Sendbird's master API token) and selects
/// the app it belongs to. Missing or unknown: 401 with Sendbird's error body (400401).
struct APITokenMiddleware: RouterMiddleware {
    typealias Context = RelayRequestContext

    let apps: AppRegistry

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let token = request.headers[.apiToken], let app = apps.app(forAPIToken: token) else {
            throw APIError.invalidAPIToken
        }
        var context = context
        context.app = app
        context.logger[metadataKey: "app_id"] = .string(app.appID)
        return try await next(request, context)
    }
}

extension HTTPField.Name {
    /// Sendbird's authentication header.
    static let apiToken = HTTPField.Name("Api-Token")!
}
