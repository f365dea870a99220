import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
@testable import PushService

/// A browser against the live relay's console: keeps the cookies the relay sets (by name, as a
/// browser would for `/console`), follows nothing (tests look at each redirect), and reads the
/// CSRF token out of the last page's forms.
final class ConsoleBrowser {
    let client: any TestClientProtocol
    var cookies: [String: String] = [:]
    var extraHeaders: HTTPFields = [:]
    private(set) var lastPage = ""

    init(_ relay: LiveRelay) {
        client = relay.client
    }

    struct Answer {
        let status: HTTPResponse.Status
        let headers: HTTPFields
        let text: String
        var setCookies: [String] { headers[values: .setCookie] }
        var location: String? { headers[.location] }
    }

    @discardableResult
    func get(_ uri: String) async throws -> Answer {
        try await send(.get, uri, body: nil)
    }

    /// Posts `fields` as a form; `csrf` from the last page is added unless given.
    @discardableResult
    func post(_ uri: String, _ fields: [(String, String)], csrf: String? = nil) async throws -> Answer {
        var all = fields
        if !fields.contains(where: { $0.0 == "csrf" }) { all.append(("csrf", csrf ?? csrfToken ?? "")) }
        let body = all.map { "\(ConsoleLink.encoded($0.0))=\(ConsoleLink.encoded($0.1))" }.joined(separator: "&")
        return try await send(.post, uri, body: body)
    }

    /// Signs in with `secret` (and `name` for a console user): the form first, as a browser does.
    @discardableResult
    func signIn(_ secret: String, name: String = "") async throws -> Answer {
        try await get("/console/sign-in")
        return try await post("/console/sign-in", [("secret", secret), ("name", name)])
    }

    /// The `csrf` hidden field of the last page.
    var csrfToken: String? {
        guard let range = lastPage.range(of: #"name="csrf" value=""#) else { return nil }
        return String(lastPage[range.upperBound...].prefix { $0 != "\"" })
    }

    private func send(_ method: HTTPRequest.Method, _ uri: String, body: String?) async throws -> Answer {
        var headers = extraHeaders
        if !cookies.isEmpty { headers[.cookie] = cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ") }
        if body != nil { headers[.contentType] = "application/x-www-form-urlencoded" }
        let response = try await client.execute(uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
        let answer = Answer(status: response.status, headers: response.headers, text: String(buffer: response.body))
        for cookie in answer.setCookies {
            let pair = cookie.split(separator: ";")[0].split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let (name, value) = (String(pair[0]), pair.count > 1 ? String(pair[1]) : "")
            if value.isEmpty || cookie.contains("Max-Age=0") { cookies[name] = nil } else { cookies[name] = value }
        }
        if answer.headers[.contentType]?.hasPrefix("text/html") == true { lastPage = answer.text }
        return answer
    }
}
