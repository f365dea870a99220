import HTTPTypes
import Hummingbird
import Logging

/// Around every `/console` route: the security headers on every answer, and errors as pages
/// rather than the REST API's JSON. A strict Content-Security-Policy allows the console's own
/// style sheet and nothing else — no script at all, no inline style, no frame, no form posting
/// elsewhere — so even markup that slipped through escaping could do nothing.
struct ConsoleMiddleware: RouterMiddleware {
    typealias Context = RelayRequestContext

    static let contentSecurityPolicy =
        "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response: Response
        do {
            response = try await next(request, context)
        } catch let redirect as ConsoleRedirect {
            response = Response(status: .seeOther, headers: [.location: redirect.location])
            for cookie in redirect.cookies { response.headers.append(HTTPField(name: .setCookie, value: cookie)) }
        } catch let error as APIError {
            response = Self.errorPage(status: error.status, message: error.message)
            if let retryAfter = error.retryAfterSeconds { response.headers[.retryAfter] = String(retryAfter) }
        } catch let error as HTTPError where error.status.code < 500 {
            response = Self.errorPage(status: error.status, message: error.body ?? error.status.reasonPhrase)
        } catch {
            if let aborted = AbortedRequest(error) {
                response = Self.errorPage(status: aborted.apiError.status, message: aborted.apiError.message)
            } else {
                // Our own failure (database, bug): the detail in the log, a generic page for the browser.
                context.logger.error(
                    "console request failed",
                    metadata: ["path": .string(LoggablePath.of(request.uri.path)), "error": .string(String(describing: error))])
                response = Self.errorPage(status: .internalServerError, message: APIError.unexpected.message)
            }
        }
        Self.secure(&response.headers)
        return response
    }

    static func secure(_ headers: inout HTTPFields) {
        headers[.contentSecurityPolicy] = contentSecurityPolicy
        headers[.xContentTypeOptions] = "nosniff"
        headers[.referrerPolicy] = "no-referrer"
        headers[.xFrameOptions] = "DENY"
        headers[.cacheControl] = "no-store"
    }

    static func errorPage(status: HTTPResponse.Status, message: String) -> Response {
        struct Page {
            var chrome: ConsoleChrome
            var heading: String
            var message: String
            var back: String
        }
        let page = Page(
            chrome: .signedOut(status.reasonPhrase), heading: "\(status.code) \(status.reasonPhrase)", message: message,
            back: "/console/overview")
        return ConsoleTemplates.response("error", page, status: status)
    }
}

extension HTTPField.Name {
    static let xFrameOptions = HTTPField.Name("X-Frame-Options")!
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
}
