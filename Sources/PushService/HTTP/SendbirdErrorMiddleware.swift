import Hummingbird
import Logging

/// Turns every error into Sendbird's error body, so a client never sees Hummingbird's default
/// text or an empty 500: `APIError`s as they are, Hummingbird's own HTTP errors (unknown path,
/// body too large) mapped to the closest Sendbird code, a known path with a method it does not
/// answer a 405 with `Allow`, anything else a logged 500 (500901).
struct SendbirdErrorMiddleware: RouterMiddleware {
    typealias Context = RelayRequestContext

    let bodyLimit: Int

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            // A 503 is a decision its handler already logged (throttled): backlog full, no APNs
            // configuration. Logging each here would let a retrying sender flood the journal.
            if error.status.code >= 500, error.status != .serviceUnavailable {
                context.logger.error("request failed", metadata: ["path": .string(LoggablePath.of(request.uri.path)), "error": .string(error.message)])
            }
            return error.response()
        } catch let error as HTTPError {
            if error.status == .notFound, let allowed = AllowedMethods.relay.methods(forPath: request.uri.path),
               !allowed.contains(request.method.rawValue) {
                var response = APIError(status: .methodNotAllowed, code: .invalidValue,
                                        message: "\"\(request.method)\" is not allowed on \"\(request.uri.path)\"; use \(allowed.joined(separator: ", ")).").response()
                response.headers[.allow] = allowed.joined(separator: ", ")
                return response
            }
            return Self.apiError(for: error, request: request, bodyLimit: bodyLimit).response()
        } catch {
            // Our own failure (database, bug): log the detail, answer generically.
            context.logger.error("request failed", metadata: ["path": .string(LoggablePath.of(request.uri.path)), "error": .string(String(describing: error))])
            return APIError.unexpected.response()
        }
    }

    static func apiError(for error: HTTPError, request: Request, bodyLimit: Int) -> APIError {
        switch error.status {
        case .notFound:
            APIError(status: .notFound, code: .notFound, message: "\"\(request.method) \(request.uri.path)\" not found.")
        case .contentTooLarge:
            .bodyTooLarge(limit: bodyLimit)
        case let status where status.code < 500:
            APIError(status: status, code: .invalidValue, message: error.body ?? status.reasonPhrase)
        default:
            .unexpected
        }
    }
}

extension APIError {
    /// The Sendbird error body.
    func response() -> Response {
        var response = JSONResponse.make(status: status, ErrorBody(message: message, code: code.rawValue, error: true))
        if let retryAfterSeconds { response.headers[.retryAfter] = String(retryAfterSeconds) }
        return response
    }

    private struct ErrorBody: Encodable {
        var message: String
        var code: Int
        var error: Bool
    }
}
