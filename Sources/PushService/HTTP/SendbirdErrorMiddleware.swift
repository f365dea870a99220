import Foundation
import Hummingbird
import Logging
import PushEngine

/// Turns every error into Sendbird's error body, so a client never sees Hummingbird's default
/// text or an empty 500: `APIError`s as they are, Hummingbird's own HTTP errors (unknown path,
/// body too large) mapped to the closest Sendbird code, anything else a logged 500 (500901).
struct SendbirdErrorMiddleware: RouterMiddleware {
    typealias Context = RelayRequestContext

    let bodyLimit: Int
    let abortedRequests = AbortedRequestLog()

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            // A 503 is a decision its handler already logged (throttled): backlog full, no APNs
            // configuration. Logging each here would let a retrying sender flood the journal.
            if error.status.code >= 500, error.status != .serviceUnavailable {
                context.logger.error(
                    "request failed", metadata: ["path": .string(LoggablePath.of(request.uri.path)), "error": .string(error.message)])
            }
            return error.response()
        } catch let error as HTTPError {
            return Self.apiError(for: error, request: request, bodyLimit: bodyLimit).response()
        } catch {
            // The client went away mid-request, or was too slow: not the relay's failure.
            if let aborted = AbortedRequest(error) {
                abortedRequests.record(aborted, path: LoggablePath.of(request.uri.path), logger: context.logger)
                return aborted.apiError.response()
            }
            // Our own failure (database, bug): log the detail, answer generically. Handlers turn
            // every other failure into an `APIError`, so what gets here is the store's.
            DatabaseErrors.count(.rest)
            context.logger.error(
                "request failed",
                metadata: ["path": .string(LoggablePath.of(request.uri.path)), "error": .string(String(describing: error))])
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
        let body = ErrorBody(message: message, code: code.rawValue, error: true)
        // Encoding three plain fields cannot fail; if it ever did, say so rather than crash.
        let data =
            (try? RelayRequestContext.jsonEncoder.encode(body))
            ?? Data(#"{"code":500901,"error":true,"message":"response encoding failed"}"#.utf8)
        var response = Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
        if let retryAfterSeconds { response.headers[.retryAfter] = String(retryAfterSeconds) }
        return response
    }

    private struct ErrorBody: Encodable {
        var message: String
        var code: Int
        var error: Bool
    }
}
