import Foundation
import NIOHTTP1

/// A mock's admin API as a table of routes: each method and path to its answer; 405 for a known
/// path asked with another method, 404 for any other path (errors as `{"error":"…"}`).
package struct AdminRoutes: Sendable {
    package struct Route: Sendable {
        let method: HTTPMethod
        let path: String
        let answer: @Sendable (AdminRequest) -> AdminResponse

        package init(_ method: HTTPMethod, _ path: String, _ answer: @escaping @Sendable (AdminRequest) -> AdminResponse) {
            self.method = method
            self.path = path
            self.answer = answer
        }

        /// A route that does `action` and answers 204.
        package static func command(_ method: HTTPMethod, _ path: String, _ action: @escaping @Sendable () -> Void) -> Route {
            Route(method, path) { _ in
                action()
                return .noContent
            }
        }
    }

    private let routes: [Route]

    package init(_ routes: [Route]) {
        self.routes = routes
    }

    /// Answers one request (an `AdminHTTPHandler.Responder`).
    package func respond(method: HTTPMethod, uri: String, body: Data) -> AdminResponse {
        let request = AdminRequest(method: method, uri: uri, body: body)
        if let route = routes.first(where: { $0.method == method && $0.path == request.path }) {
            return route.answer(request)
        }
        if routes.contains(where: { $0.path == request.path }) {
            return .error(.methodNotAllowed, "\(method) is not allowed on \(request.path)")
        }
        return .error(.notFound, "no admin endpoint \(request.path.prefix(200))")
    }
}
