import Hummingbird

/// Answers a known path asked with a method it does not take with 405 and `Allow` (the router
/// says 404). Added last, once every route is in: Hummingbird builds its not-found responder
/// with every middleware when the application starts, so this one sees exactly those requests.
struct MethodNotAllowedMiddleware: RouterMiddleware {
    typealias Context = RelayRequestContext

    let allowed: AllowedMethods

    /// Adds the middleware for the routes `router` has now.
    static func add(to router: Router<RelayRequestContext>) {
        router.add(middleware: MethodNotAllowedMiddleware(allowed: AllowedMethods(router.routes)))
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            guard let allowed = allowed.methods(forPath: request.uri.path), !allowed.contains(request.method.rawValue) else { throw error }
            var response = APIError(
                status: .methodNotAllowed, code: .invalidValue,
                message: "\"\(request.method)\" is not allowed on \"\(request.uri.path)\"; use \(allowed.joined(separator: ", "))."
            ).response()
            response.headers[.allow] = allowed.joined(separator: ", ")
            return response
        }
    }
}
